/**
 * The pieces of the OpenAPI-driven fuzzing: hostile values, a generator of bodies from an operation's JSON
 * schema (valid-looking bodies with hostile values mixed in), and the checks every answer must pass.
 */
import fc from 'fast-check'

/** Strings chosen to break something: SQL, markup, paths, format strings, odd Unicode, odd numbers. */
export const HOSTILE_STRINGS = [
  "'; DROP TABLE orders;--",
  "' OR '1'='1' --",
  '1; SELECT * FROM users',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as plain text.
  '${7*7}{{7*7}}',
  '%s%s%s%n%x',
  'Sam\r\nSet-Cookie: session=stolen',
  'nul\u0000byte',
  'bell\u0007\u001b[31mred',
  'next\u0085line',
  '\u202eevil\u202c',
  'zero\u200bwidth\ufeff',
  'lone \ud800 surrogate',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧔‍♂️ 山田 José',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1',
  '-0.01',
  '0x1F',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '',
  ' ',
  'A'.repeat(5000),
]

/** Parts of the hostile strings that must never come back in an answer to the request that carried them. */
export const ECHO_PROBES = [
  'DROP TABLE',
  "OR '1'='1",
  'SELECT * FROM',
  '<script>',
  'onerror=',
  'javascript:',
  'etc/passwd',
  'etc%2Fpasswd',
  '{{7*7}}',
  '%s%s%s%n',
  'Set-Cookie: session',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '9'.repeat(400),
  'A'.repeat(5000),
]

export const HOSTILE_NUMBERS = [
  -1,
  -0.01,
  0,
  0.001,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MIN_VALUE,
]

export const hostileString = fc.constantFrom(...HOSTILE_STRINGS)

/** Any hostile value: a string, a number, or the wrong kind of thing altogether. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2, 3], { nested: { deeper: ["'"] } }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  default?: unknown
}

/**
 * Values a real client would put in fields of these names, so that bodies get past validation and into
 * the handlers (where a hostile value in one field meets real work in the others).
 */
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  email: fc.constantFrom('fuzz@example.com', 'dana@example.com'),
  customer_email: fc.constant('fuzz@example.com'),
  password: fc.constant('sawdust-and-cedar'),
  firstName: fc.constantFrom('Dana', 'José'),
  lastName: fc.constantFrom('Cole', '山田'),
  name: fc.constantFrom('Dana Cole', 'Hammered Citrus', 'Workforce Repair Original Grit'),
  street1: fc.constant('12 Mill Rd'),
  street: fc.constant('12 Mill Rd'),
  city: fc.constant('San Francisco'),
  state: fc.constant('CA'),
  zip: fc.constant('94107'),
  zipCode: fc.constant('94107'),
  country: fc.constant('US'),
  code: fc.constantFrom('GRIT15', 'CREW10', 'NOPE'),
  discount_code: fc.constantFrom('GRIT15', null),
  amount: fc.constantFrom(40, '40.00', 12.5),
  product_id: fc.integer({ min: 1, max: 6 }),
  id: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant('rate_unknown')),
  quantity: fc.integer({ min: 1, max: 3 }),
  itemCount: fc.integer({ min: 0, max: 25 }),
  weight: fc.constantFrom(4, 2.5, '3.0'),
  token: fc.constant('a'.repeat(32)),
  cardNumber: fc.constantFrom('4242 4242 4242 4242', '4000 0000 0000 0002'),
  expiry: fc.constant('12/30'),
  cvc: fc.constant('123'),
  phone: fc.constant('(512) 555-0100'),
}

/** A value of the schema's shape, as a well-behaved client would send. */
function wellFormed(schema: JsonSchema, depth: number, name?: string): fc.Arbitrary<unknown> {
  const plausible = name ? PLAUSIBLE[name] : undefined
  if (plausible) return plausible
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, depth + 1)))
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {})
      if (depth > 6 || properties.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 })
      const required = new Set(schema.required ?? [])
      const fields = Object.fromEntries(
        properties.map(([name, property]) => [name, fromSchema(property, depth + 1, name)]),
      )
      return fc.record(fields, {
        requiredKeys: properties.filter(([name]) => required.has(name)).map(([name]) => name),
      })
    }
    case 'array':
      return fc.array(schema.items ? fromSchema(schema.items, depth + 1) : hostileValue, {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      })
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 2 ** 31) })
    case 'number':
      return fc.double({ min: schema.minimum ?? -10, max: schema.maximum ?? 1000, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'string':
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constantFrom(
          'name@example.com',
          'GRIT15',
          'CREW10',
          'US',
          'CA',
          '94107',
          '12 Mill Rd',
          'Dana Cole',
        ),
      )
    default:
      return hostileValue
  }
}

/** A value for the schema: usually well-formed, often hostile, now and then missing its point entirely. */
export function fromSchema(schema: JsonSchema, depth = 0, name?: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: wellFormed(schema, depth, name) },
    { weight: 1, arbitrary: hostileValue },
  )
}

/** Everything a request carried, as text, to look for echoes in the answer. */
export function probesIn(...parts: string[]): string[] {
  const sent = parts.join('\n')
  return ECHO_PROBES.filter((probe) => sent.includes(probe))
}

const LEAKS: [string, RegExp][] = [
  ['a stack trace', /\n\s+at\s|\bat\s+[\w$.<>]+\s+\([^)]*:\d+:\d+\)|\.(?:ts|js|mjs):\d+(?::\d+)?/],
  [
    'SQL or the database driver',
    /SQLITE_|SQLiteError|LibsqlError|no such (?:table|column)|syntax error|\bdrizzle\b|\blibsql\b|\b(?:select|insert|update|delete)\b[^"]{0,80}\b(?:from|into|set)\s+["`]?\w+["`]?\s+(?:where|values|\()/i,
  ],
  ['a file path', /\/work\/|\/tmp\/|\/home\/|\/usr\/|node_modules|file:\/\/|[A-Z]:\\\\/],
  [
    'an internal error name',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b|\bundefined is not\b|Cannot read propert/,
  ],
]

/** What an answer must not give away: which leak it shows, or null. */
export function leakIn(text: string): string | null {
  for (const [what, pattern] of LEAKS) if (pattern.test(text)) return what
  return null
}
