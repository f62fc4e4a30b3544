import { useEffect } from 'react'
import { loadUser } from './auth-store'
import { afterSignIn } from './redirects'
import { hasSessionHint } from './session-hint'
import { SIGNED_IN_CHECK_ATTRIBUTE } from './signed-in-check'

/**
 * /login and /signup for a visitor who is signed in already (docs/product.md#sign-in): most often one who
 * pressed Back after signing in. They go on to where signing in would have taken them (`next`, checked as
 * afterSignIn checks it), the sign-in page left out of the history, and never see the form.
 *
 * The `signed_in` hint alone does not decide it: a hint outliving its session (ended on the server) would
 * send the visitor to a page that sends them back here. The server is asked (the header's own question, so
 * no extra request on a fresh load); a 401 removes the hint and the form shows. The page is hidden
 * meanwhile, from <head> on (SIGNED_IN_CHECK_SCRIPT).
 *
 * A page the browser restores from its back-forward cache runs no script again and keeps what it knew
 * when the visitor left it, signed out: `pageshow` with `persisted` asks again.
 */
export function useOnwardWhenSignedIn(): void {
  useEffect(() => {
    const root = document.documentElement
    function goOnIfSignedIn(askAgain: boolean) {
      if (!hasSessionHint()) {
        root.removeAttribute(SIGNED_IN_CHECK_ATTRIBUTE)
        return
      }
      root.setAttribute(SIGNED_IN_CHECK_ATTRIBUTE, '')
      loadUser({ force: askAgain }).then((user) => {
        if (user) window.location.replace(afterSignIn(window.location.search))
        else root.removeAttribute(SIGNED_IN_CHECK_ATTRIBUTE)
      })
    }
    goOnIfSignedIn(false)
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) goOnIfSignedIn(true)
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [])
}
