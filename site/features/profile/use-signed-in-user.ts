import { useEffect, useState } from 'react'
import { isPublicUser } from '../account/api'
import { loadUser } from '../account/auth-store'
import type { PublicUser } from './api'

/**
 * The signed-in customer for a page that needs one. The head guard already sent visitors without the
 * `signed_in` hint away; this asks the server, which decides, and sends anyone it does not know to /login.
 */
export function useSignedInUser(): [PublicUser | null, (user: PublicUser) => void] {
  const [user, setUser] = useState<PublicUser | null>(null)
  useEffect(() => {
    let active = true
    // Shared with the header's own check: one request per page.
    loadUser().then((answer) => {
      if (!active) return
      if (isPublicUser(answer)) setUser(answer)
      else window.location.replace('/login')
    })
    return () => {
      active = false
    }
  }, [])
  return [user, setUser]
}
