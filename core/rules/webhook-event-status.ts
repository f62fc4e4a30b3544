/**
 * How a payment provider's event was handled: 'received' is not finished yet (a handler holds it, or one
 * died and the sweep will finish it); the others are final. The dashboard shows them with the order badges.
 */
export const WEBHOOK_EVENT_STATUSES = ['received', 'processed', 'ignored', 'failed'] as const
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number]
