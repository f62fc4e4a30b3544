import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { clientAddress, type RateLimiter } from '../../plugins/rate-limit'
import { ratesBody, ratesResponse } from './model'
import { createShippingService } from './service'

const RATES_LIMIT = {
  max: 60,
  windowMs: 60 * 1000,
  message: 'Too many shipping rate requests. Please wait a minute and try again.',
}

export function shippingRoutes(deps: AppDeps, limit: RateLimiter) {
  const shipping = createShippingService(deps)
  return new Elysia().post(
    '/api/shipping/rates',
    async ({ body, request, server }) => {
      await limit(`shipping-rates:${clientAddress(request, server, deps.config.trustProxy)}`, RATES_LIMIT)
      return shipping.quote({
        address: body.address,
        items: body.items.map((item) => ({ productId: item.id, quantity: item.quantity })),
        discountCode: body.discount_code ?? null,
      })
    },
    { body: ratesBody, response: { 200: ratesResponse } },
  )
}
