/** The profile and order calls, typed from the API's own schemas (types only). */
import type {
  NotificationsBody,
  PublicUser,
  UpdateProfileBody,
  UserOrder,
  UserOrderDetail,
} from '../../../api/modules/account/model'
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
