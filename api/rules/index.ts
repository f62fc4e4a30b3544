/** Pure business rules shared by the site and the API: no server or browser imports below this folder. */
export * from './address'
export * from './catalog'
export * from './discounts'
export * from './money'
export * from './order-status'
export * from './package'
export * from './search'
export * from './shipping'
