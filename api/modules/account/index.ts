import {
  notificationsBody,
  orderNumberParams,
  profileResponse,
  updateProfileBody,
  userOrderDetailSchema,
  userOrderSchema,
} from '@core/contracts/account'
import { Elysia, t } from 'elysia'
import type { Clock } from '../../lib/clock'
import { notFound } from '../../lib/domain-errors'
import { sessionAuth } from '../auth/guard'
import type { AuthService } from '../auth/service'
import type { AccountService } from './service'

/** The signed-in customer's own profile, preferences and orders; every route here needs a session. */
export function accountRoutes(
  { auth, accounts }: { auth: AuthService; accounts: AccountService },
  clock: Clock,
) {
  return new Elysia()
    .use(sessionAuth(auth, clock))
    .onAfterHandle(({ set }) => {
      set.headers['cache-control'] = 'no-store'
    })
    .put(
      '/api/auth/update-profile',
      async ({ user, body }) => ({
        user: await accounts.updateProfile(user.id, body),
        message: 'Changes saved successfully!',
      }),
      {
        detail: { summary: 'Update name, phone and shipping address', tags: ['Account'] },
        signedIn: true,
        body: updateProfileBody,
        parse: 'json',
        response: { 200: profileResponse },
      },
    )
    .put(
      '/api/user/notifications',
      async ({ user, body }) => ({
        user: await accounts.updateNotifications(user.id, body),
        message: 'Preferences saved.',
      }),
      {
        detail: { summary: 'Update notification preferences', tags: ['Account'] },
        signedIn: true,
        body: notificationsBody,
        parse: 'json',
        response: { 200: profileResponse },
      },
    )
    .get('/api/user/orders', ({ user }) => accounts.orderHistory(user.id), {
      detail: { summary: "The customer's order history", tags: ['Account'] },
      signedIn: true,
      response: { 200: t.Array(userOrderSchema) },
    })
    .get(
      '/api/user/orders/:number',
      async ({ user, params }) => {
        const order = await accounts.order(user.id, Number(params.number))
        // Another customer's order is answered exactly like one that does not exist.
        if (!order) throw notFound('Order not found.')
        return order
      },
      {
        detail: { summary: 'One of the customer’s own orders', tags: ['Account'] },
        signedIn: true,
        params: orderNumberParams,
        response: { 200: userOrderDetailSchema },
      },
    )
}
