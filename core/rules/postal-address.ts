// How an order's address is written out, a line each: the same on the shopper's order page, the staff
// dashboard and the confirmation e-mail. Apart from address.ts, so a page showing an address does not
// load the list of states the address forms check against.
/** A postal address as an order keeps it (shipping or billing). */
export interface PostalAddress {
  name: string
  street1: string
  street2?: string | null
  city: string
  state: string
  zip: string
  country: string
}

/** The address a line each, as a label prints it: 'Dana Cole', '12 Mill Rd', 'Austin, TX 73301', 'US'. */
export function postalAddressLines(address: PostalAddress): string[] {
  const region = [address.city, [address.state, address.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ')
  return [
    address.name,
    address.street1,
    ...(address.street2 ? [address.street2] : []),
    region,
    address.country,
  ]
}
