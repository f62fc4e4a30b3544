// One file per domain; each table belongs to the module of the same name.
export * from './catalog'
export * from './checkout'
export * from './discounts'
export * from './jobs'
export * from './newsletter'
export * from './orders'
export * from './rate-limits'
