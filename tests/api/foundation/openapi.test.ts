/** GET /api/openapi.json: the API described from the routes themselves, every route included. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { acceptedBodyTypes } from '../../../api/plugins/request-shape'
import packageJson from '../../../package.json'
import { createTestApp, type TestApp } from '../support/test-app'

interface Operation {
  summary?: string
  tags?: string[]
  requestBody?: { content: Record<string, unknown> }
}
interface Document {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, Operation>>
}

let shop: TestApp
let doc: Document
beforeAll(async () => {
  shop = await createTestApp()
  const res = await shop.call('GET', '/api/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toStartWith('application/json')
  doc = (await res.json()) as Document
})
afterAll(() => shop.close())

/** The routes the app registers, minus the static site's catch-all and the document itself. */
const apiRoutes = () =>
  shop.app.routes.filter((route) => route.path !== '/*' && route.path !== '/api/openapi.json')

const documentPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}')

describe('the OpenAPI document', () => {
  test("is OpenAPI 3 with the shop's title and version", () => {
    expect(doc.openapi).toStartWith('3.')
    expect(doc.info.title).toBe('Grit & Whisker shop API')
    expect(doc.info.version).toBe(packageJson.version)
  })

  test('describes every route the app registers, with a summary and a tag', () => {
    const routes = apiRoutes()
    expect(routes.length).toBeGreaterThan(30)
    for (const route of routes) {
      const operation = doc.paths[documentPath(route.path)]?.[route.method.toLowerCase()]
      expect({ route: `${route.method} ${route.path}`, described: operation !== undefined }).toEqual({
        route: `${route.method} ${route.path}`,
        described: true,
      })
      expect(operation?.summary ?? '').not.toBe('')
      expect(operation?.tags?.length ?? 0).toBe(1)
    }
    const documented = Object.values(doc.paths).flatMap((item) => Object.keys(item))
    expect(documented.length).toBe(routes.length)
  })

  test('lists for each body exactly the content types the server takes (a 415 for any other)', () => {
    for (const route of apiRoutes()) {
      const operation = doc.paths[documentPath(route.path)]?.[route.method.toLowerCase()]
      const listed = Object.keys(operation?.requestBody?.content ?? {}).sort()
      expect({ route: route.path, types: listed }).toEqual({
        route: route.path,
        types: [...(acceptedBodyTypes(route) ?? [])].sort(),
      })
    }
  })

  test('JSON routes take JSON only; the newsletter also takes the form posts of decision 009', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation.requestBody) continue
        const types = Object.keys(operation.requestBody.content).sort()
        const expected =
          path === '/api/newsletter'
            ? ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']
            : ['application/json']
        expect({ operation: `${method} ${path}`, types }).toEqual({
          operation: `${method} ${path}`,
          types: expected,
        })
      }
    }
  })

  test('describes the e-mail verification calls with their bodies, so the fuzzers send them too', () => {
    const verify = doc.paths['/api/auth/verify-email']?.post
    expect(verify?.tags).toEqual(['Account'])
    expect(Object.keys(verify?.requestBody?.content ?? {})).toEqual(['application/json'])
    expect(JSON.stringify(verify?.requestBody)).toContain('"token"')
    const resend = doc.paths['/api/auth/resend-verification']?.post
    expect(resend?.tags).toEqual(['Account'])
    expect(resend?.summary).toContain('verification link')
  })

  test('no documentation page is served: nothing that would load scripts from a CDN', async () => {
    for (const path of ['/openapi', '/swagger', '/api/openapi']) {
      const res = await shop.call('GET', path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(await res.text()).not.toContain('cdn.jsdelivr.net')
    }
  })
})
