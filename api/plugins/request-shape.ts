import { Elysia } from 'elysia'
import { invalid, unreadable } from '../lib/domain-errors'
import { HttpError, jsonError, NOT_JSON_MESSAGE } from './errors'

/** Deeper than any body the shop's pages send (a checkout line's price_data is 6 levels). */
export const MAX_BODY_DEPTH = 32

/** Elysia's parser names, as routes declare them in `parse`, and the content types they stand for. */
const PARSER_TYPES: Record<string, string> = {
  json: 'application/json',
  'application/json': 'application/json',
  urlencoded: 'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded': 'application/x-www-form-urlencoded',
  formdata: 'multipart/form-data',
  'multipart/form-data': 'multipart/form-data',
  text: 'text/plain',
  'text/plain': 'text/plain',
}

/**
 * What a route with a body schema and no `parse` takes: Elysia parses these three by their content type,
 * and the OpenAPI document lists the same three. JSON-only routes say `parse: 'json'`.
 */
const UNDECLARED_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']

const PAGE_METHODS = ['GET', 'HEAD']

interface RegisteredRoute {
  method: string
  path: string
  hooks?: { body?: unknown; parse?: unknown; query?: unknown }
}

export interface RouteShape {
  method: string
  /** The route's path as registered, e.g. /api/orders/:id. */
  path: string
  pattern: RegExp
  /** Content types the route reads a body as; null when it reads none (or reads it raw itself). */
  accepts: string[] | null
  /** Whether the route reads its query string (has a query schema). */
  readsQuery: boolean
  /** Whether its body may be left out (a cancel's reason, an account deletion's password). */
  optionalBody: boolean
}

function patternFor(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => {
      if (part === '*') return '.*'
      if (part.startsWith(':')) return '[^/]+'
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}

/** A schema made with `t.Optional` (TypeBox marks it with this symbol). */
function isOptional(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && Symbol.for('TypeBox.Optional') in schema
}

/** The content types a route takes, by the same rule the OpenAPI document is written with. */
export function acceptedBodyTypes(route: RegisteredRoute): string[] | null {
  const declared = [route.hooks?.parse]
    .flat()
    .map((parser) =>
      typeof parser === 'object' && parser !== null ? (parser as { fn?: unknown }).fn : parser,
    )
    .filter((name): name is string => typeof name === 'string')
  if (declared.includes('none')) return null
  const types = [...new Set(declared.map((name) => PARSER_TYPES[name]).filter((type) => type !== undefined))]
  if (types.length > 0) return types
  return route.hooks?.body ? UNDECLARED_BODY_TYPES : null
}

/**
 * Every API route with its methods and the bodies it takes, filled in once the app has all its routes
 * (api/app.ts). The static site's catch-all is left out: it stands for pages, not for one path.
 */
export function createRouteTable() {
  let shapes: RouteShape[] = []
  return {
    load(routes: readonly RegisteredRoute[]) {
      shapes = routes
        .filter((route) => route.path !== '/*')
        .map((route) => ({
          method: route.method,
          path: route.path,
          pattern: patternFor(route.path),
          accepts: acceptedBodyTypes(route),
          readsQuery: Boolean(route.hooks?.query),
          optionalBody: isOptional(route.hooks?.body),
        }))
    },
    get shapes(): readonly RouteShape[] {
      return shapes
    },
    /** The route that answers this method at this path; HEAD is answered by GET routes. */
    find(method: string, pathname: string): RouteShape | undefined {
      const wanted = method === 'HEAD' ? 'GET' : method
      return shapes.find((shape) => shape.method === wanted && shape.pattern.test(pathname))
    },
    /** The route registered with exactly this method and path pattern. */
    registered(method: string, path: string): RouteShape | undefined {
      return shapes.find((shape) => shape.method === method && shape.path === path)
    },
    /** The methods some route answers at this path, for an Allow header (HEAD wherever GET is). */
    methodsAt(pathname: string): string[] {
      const methods = new Set<string>()
      for (const shape of shapes) {
        if (!shape.pattern.test(pathname)) continue
        methods.add(shape.method)
        if (shape.method === 'GET') methods.add('HEAD')
      }
      return [...methods]
    },
  }
}

export type RouteTable = ReturnType<typeof createRouteTable>

function methodNotAllowedMessage(methods: readonly string[]): string {
  return `This address does not take that method. It takes ${methods.join(', ')}.`
}

/** A 405 answer naming the methods the path takes, for a route handler to return. */
export function methodNotAllowed(methods: readonly string[]): Response {
  return jsonError(405, methodNotAllowedMessage(methods), {}, { allow: methods.join(', ') })
}

/** The same refusal, thrown before routing so the error funnel (and the request log) answers it. */
function methodNotAllowedError(methods: readonly string[]): HttpError {
  return new HttpError(405, methodNotAllowedMessage(methods), {}, { allow: methods.join(', ') })
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function hasBody(request: Request): boolean {
  return request.body !== null && request.headers.get('content-length') !== '0'
}

/** 'Application/JSON; charset=utf-8' → 'application/json'. */
function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

/**
 * Field names that are also the names of every object's own methods (`toString`, `valueOf`, `__proto__`…).
 * No request of the shop uses one; a body or query that does would shadow the method for whatever code
 * handles the object next (Elysia's own validation messages call `toString`, and fail).
 */
const OBJECT_METHOD_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype))

/** What is wrong with a parsed body or query as a whole: nested deeper than `max`, or a field name above. */
export function shapeProblem(value: unknown, max: number): 'too-deep' | 'reserved-name' | null {
  // Walked with a stack, so no depth can overflow it.
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (typeof current !== 'object' || current === null) continue
    if (depth > max) return 'too-deep'
    for (const [key, child] of Object.entries(current)) {
      if (OBJECT_METHOD_NAMES.has(key)) return 'reserved-name'
      stack.push([child, depth + 1])
    }
  }
  return null
}

function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return pathname
  }
}

function isApiPath(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname.startsWith('/auth/')
}

/**
 * Requests the routes were not made for are answered before any route reads them:
 * - a method the path does not take: 405 with `Allow` (a page of the site takes GET and HEAD only);
 * - a body in a content type the route does not read: 415 naming the types it does (a JSON route never
 *   reads `text/plain` as JSON; the newsletter also takes the form posts of decision 009);
 * - JSON nested deeper than MAX_BODY_DEPTH: 400, before validation walks it; a field named like an object
 *   method (`toString`, `__proto__`): 422.
 * GETs for a path only other methods take are answered by the static site's catch-all (static-site.ts).
 */
export function requestShape(routes: RouteTable, site: { find(pathname: string): unknown }) {
  return new Elysia({ name: 'request-shape' })
    .onRequest(async ({ request }) => {
      if (request.method === 'GET' || request.method === 'HEAD') return
      const { pathname } = new URL(request.url)
      const route = routes.find(request.method, pathname)
      if (!route) {
        const methods = routes.methodsAt(pathname)
        if (methods.length > 0) throw methodNotAllowedError(methods)
        if (!isApiPath(pathname) && site.find(decodedPath(pathname)))
          throw methodNotAllowedError(PAGE_METHODS)
        return
      }
      if (route.accepts === null || !hasBody(request)) return
      const type = mediaType(request)
      // Media types are case-insensitive, Elysia's parsers are not: 'Application/JSON' is read as JSON too.
      // Only the type is lowered; a multipart boundary after it is case-sensitive.
      const declared = request.headers.get('content-type') ?? ''
      const [given = ''] = declared.split(';')
      if (given !== given.toLowerCase()) {
        request.headers.set('content-type', given.toLowerCase() + declared.slice(given.length))
      }
      if (!route.accepts.includes(type)) {
        const list = route.accepts.join(', ').replace(/, ([^,]*)$/, ' or $1')
        throw new HttpError(
          415,
          type === ''
            ? `The request body has no Content-Type. Send it as ${list}.`
            : `This address does not take that content type. Send the body as ${list}.`,
        )
      }
      // Elysia reads an optional JSON body with its error swallowed: one that is not JSON would reach the
      // route as no body at all, and the route would act on a request it misread (a cancel carried out
      // without its reason). Such a body is read here first, and refused as any unreadable body is.
      if (route.optionalBody && type === 'application/json') {
        const text = await request.clone().text()
        if (text.trim() !== '' && !isJson(text)) throw unreadable(NOT_JSON_MESSAGE)
      }
    })
    .onTransform({ as: 'global' }, ({ body, query, request, route }) => {
      // A query string is only looked at where a route reads one: a page's link may carry anything.
      const readsQuery = routes.registered(request.method, route)?.readsQuery ?? false
      for (const part of readsQuery ? [body, query] : [body]) {
        const problem = shapeProblem(part, MAX_BODY_DEPTH)
        if (problem === 'too-deep') {
          throw unreadable(`The request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`)
        }
        if (problem === 'reserved-name') throw invalid('The request has a field name the shop does not take.')
      }
    })
}
