// One file per domain; each table belongs to the module of the same name.
export * from './catalog'
export * from './newsletter'
export * from './rate-limits'
export * from './discounts'
