/** The profile and order calls, typed from the API's own schemas (types only). */
import type {
  NotificationsBody,
  PublicUser,
  UpdateProfileBody,
  UserOrder,
  UserOrderDetail,
} from '@core/contracts/account'
import { apiRequest } from '../../lib/api'

export type { PublicUser, UserOrder, UserOrderDetail }

type ProfileAnswer = { user: PublicUser; message: string }

export const saveProfile = (body: UpdateProfileBody) =>
  apiRequest<ProfileAnswer>('PUT', '/api/auth/update-profile', body)

export const saveNotifications = (body: NotificationsBody) =>
  apiRequest<ProfileAnswer>('PUT', '/api/user/notifications', body)

export const fetchOrders = (signal?: AbortSignal) =>
  apiRequest<UserOrder[]>('GET', '/api/user/orders', undefined, { signal })

/** Null when the order is not the customer's (or does not exist), or the session has ended. */
export const fetchOrder = (number: string, signal?: AbortSignal) =>
  apiRequest<UserOrderDetail>('GET', `/api/user/orders/${encodeURIComponent(number)}`, undefined, { signal })

/** Deletes the signed-in account: 204, and the server ends every session and clears the cookies. */
export const deleteAccount = (password: string | null) =>
  apiRequest<null>('DELETE', '/api/user', password === null ? {} : { password })
