/**
 * Who a customer is, for discount rules that count per customer ("first order only", "once each").
 *
 * E-mail providers deliver `name+anything@host` to `name@host`, so a plus-address is the same customer:
 * the key drops everything from the first '+' of the local part and lower-cases the rest. Dots are kept
 * (only some providers ignore them, and two people may differ by a dot at a company domain).
 */
export function customerKey(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at <= 0) return address
  const local = address.slice(0, at)
  const plus = local.indexOf('+')
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`
}
