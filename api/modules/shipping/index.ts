import { Elysia } from 'elysia'
import type { RateLimitPlugin } from '../../plugins/rate-limit'
import type { Services } from '../../services'
import { ratesBody, ratesResponse } from './model'

const RATES_LIMIT = {
  name: 'shipping-rates',
  max: 60,
  windowMs: 60 * 1000,
  message: 'Too many shipping rate requests. Please wait a minute and try again.',
}

export function shippingRoutes({ shipping }: Pick<Services, 'shipping'>, limits: RateLimitPlugin) {
  return new Elysia().use(limits).post(
    '/api/shipping/rates',
    ({ body }) =>
      shipping.quote({
        address: body.address,
        items: body.items.map((item) => ({ productId: item.id, quantity: item.quantity })),
        discountCode: body.discount_code ?? null,
      }),
    { body: ratesBody, response: { 200: ratesResponse }, rateLimit: RATES_LIMIT },
  )
}
