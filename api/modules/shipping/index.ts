import { DISCOUNT_ATTEMPT_LIMIT } from '@core/contracts/discounts'
import { ratesBody, ratesResponse } from '@core/contracts/shipping'
import { Elysia } from 'elysia'
import { type RateLimitPlugin, sendsDiscountCode } from '../../plugins/rate-limit'
import type { CartHold } from '../discounts'
import type { ShippingService } from './service'

const RATES_LIMIT = {
  name: 'shipping-rates',
  max: 60,
  windowMs: 60 * 1000,
  message: 'Too many shipping rate requests. Please wait a minute and try again.',
}

/** The free-shipping line shows whether a code is valid, so a code sent here counts as a guess too. */
const ratesLimits = (body: unknown) =>
  sendsDiscountCode(body) ? [RATES_LIMIT, DISCOUNT_ATTEMPT_LIMIT] : [RATES_LIMIT]

export function shippingRoutes(
  { shipping, checkout }: { shipping: ShippingService; checkout: { cartHold: CartHold } },
  limits: RateLimitPlugin,
) {
  return new Elysia().use(limits).post(
    '/api/shipping/rates',
    async ({ body }) =>
      shipping.quote({
        address: body.address,
        items: body.items,
        discountCode: body.discount_code ?? null,
        // The cart's own open session holds the code's use: not counted against it (docs/decisions/032).
        heldBy: body.discount_code ? await checkout.cartHold(body.open_session) : undefined,
      }),
    {
      detail: { summary: 'Shipping rates for an address and cart', tags: ['Shop'] },
      body: ratesBody,
      parse: 'json',
      response: { 200: ratesResponse },
      rateLimit: ratesLimits,
    },
  )
}
