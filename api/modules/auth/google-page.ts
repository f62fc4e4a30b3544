/**
 * The page /auth/google shows when Google sign-in cannot start. It is HTML, not JSON: the visitor got here
 * by clicking a link, so they read a page that says what happened and how to go on.
 */
const TEXT = {
  'not-configured': {
    status: 503,
    title: 'Google sign-in is not set up',
    body: 'This shop has not been connected to Google yet, so signing in with Google is not possible. You can still sign in or create an account with your e-mail and a password.',
  },
  unreachable: {
    status: 502,
    title: 'Google sign-in is unavailable',
    body: 'We could not reach Google just now. Please try again in a moment, or sign in with your e-mail and a password.',
  },
} as const

export function googleUnavailablePage(reason: keyof typeof TEXT): Response {
  const { status, title, body } = TEXT[reason]
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} | Grit &amp; Whisker</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 3rem 1.25rem; background: #f7f4ee; color: #1c1917; }
  main { max-width: 34rem; margin: 0 auto; }
  h1 { font-size: 1.6rem; margin: 0 0 1rem; }
  p { line-height: 1.6; }
  a { color: #7c2d12; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${body}</p>
<p><a href="/login">Back to sign in</a></p>
</main>
</body>
</html>
`
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })
}
