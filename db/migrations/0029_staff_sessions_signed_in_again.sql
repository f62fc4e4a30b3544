-- Staff sign in again, once: a staff account's password shorter than the staff rule now opens nothing
-- (an account made staff before `staff add` replaced a customer's password kept it), so the sessions such a
-- password may have opened end here, and the next sign-in meets the rule. Google sign-ins stay.
DELETE FROM `sessions`
WHERE (`signed_in_with` IS NULL OR `signed_in_with` = 'password')
  AND `user_id` IN (SELECT `id` FROM `users` WHERE `role` = 'staff');
