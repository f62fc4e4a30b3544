import { describe, expect, test } from 'bun:test'
import { brokenRules } from '../../../scripts/imports/rules'

const names = (from: string, to: string) => brokenRules(from, to).map((rule) => rule.name)

describe('the layer rules', () => {
  test.each([
    ['core/rules/money.ts', 'api/lib/log.ts', 'core is pure'],
    ['core/contracts/dashboard.ts', 'db/schema/orders.ts', 'core is pure'],
    ['db/schema/orders.ts', 'api/modules/orders/service.ts', 'db reads no api'],
    ['site/features/cart/store.ts', 'api/modules/catalog/service.ts', 'site reads no api'],
    ['site/features/checkout/DemoPaymentForm.tsx', 'api/adapters/demo-payments.ts', 'site reads no api'],
    ['content/schema.ts', 'api/modules/catalog/content.ts', 'content reads no api'],
    ['api/plugins/request-log.ts', 'api/modules/auth/service.ts', 'plugins import no module'],
    ['api/adapters/stripe.ts', 'api/modules/webhooks/service.ts', 'adapters import no module'],
    ['api/lib/log.ts', 'api/plugins/errors.ts', 'lib is a leaf'],
    ['api/modules/orders/service.ts', 'api/services.ts', 'modules do not reach up'],
    ['api/modules/checkout/service.ts', 'api/deps.ts', 'modules do not reach up'],
    [
      'api/modules/orders/service.ts',
      'api/adapters/rate-table.ts',
      'modules use adapters through their types',
    ],
    ['api/modules/catalog/service.ts', 'api/plugins/static-site.ts', 'services speak the domain'],
    ['api/modules/discounts/service.ts', 'api/plugins/errors.ts', 'services speak the domain'],
  ])('%s → %s breaks "%s"', (from, to, rule) => {
    expect(names(from, to)).toContain(rule)
  })

  test.each([
    ['site/features/cart/CartView.tsx', 'core/rules/money.ts'],
    ['db/schema/orders.ts', 'core/rules/order-status.ts'],
    ['api/modules/orders/service.ts', 'core/rules/order-status.ts'],
    ['api/modules/orders/service.ts', 'api/adapters/types.ts'],
    ['api/modules/orders/service.ts', 'api/lib/domain-errors.ts'],
    ['api/modules/orders/service.ts', 'db/schema/orders.ts'],
    // Routes speak HTTP: index.ts takes the plugins' options and helpers.
    ['api/modules/dashboard/index.ts', 'api/plugins/rate-limit.ts'],
    ['api/modules/dashboard/index.ts', 'api/modules/auth/guard.ts'],
    ['api/app.ts', 'api/modules/orders/service.ts'],
    ['api/services.ts', 'api/modules/orders/service.ts'],
    ['core/contracts/checkout.ts', 'core/rules/checkout-status.ts'],
  ])('%s → %s is allowed', (from, to) => {
    expect(names(from, to)).toEqual([])
  })
})
