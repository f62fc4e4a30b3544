-- No query reads checkout sessions by e-mail (a customer's sessions are found by account or by reservation
-- key), and every checkout wrote an entry into this index at a random place in it: dropped.
DROP INDEX `checkout_sessions_email_idx`;
