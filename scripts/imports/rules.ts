/**
 * Which folder may import which (docs/architecture.md#layers). Each rule names the files it governs and
 * the files they must not import; `npm test` fails on any import that breaks one, as on any circle.
 */
export interface ImportRule {
  name: string
  /** Why the edge is refused, for the message. */
  why: string
  from: RegExp
  to: RegExp
  /** Imports the rule lets through although `to` matches them. */
  except?: RegExp
}

export const IMPORT_RULES: readonly ImportRule[] = [
  {
    name: 'core is pure',
    why: 'core/ holds the rules and contracts the site, the API and the database share: it imports only itself',
    from: /^core\//,
    to: /^(?!core\/)/,
  },
  {
    name: 'db reads no api',
    why: 'the schema sits below the API: its status lists and types come from core/',
    from: /^db\//,
    to: /^(api|site)\//,
  },
  {
    name: 'site reads no api',
    why: 'the browser gets only core/ (rules and the contracts of the calls); nothing under api/ is bundled',
    from: /^site\//,
    to: /^api\//,
  },
  {
    name: 'content reads no api',
    why: 'content files and their schema are read by the site build and the API alike',
    from: /^content\//,
    to: /^(api|site)\//,
  },
  {
    name: 'plugins import no module',
    why: 'plugins are cross-cutting HTTP concerns; a module hands them what they need',
    from: /^api\/plugins\//,
    to: /^api\/modules\//,
  },
  {
    name: 'adapters import no module',
    why: 'an adapter speaks one outside service; the modules decide what to do with it',
    from: /^api\/adapters\//,
    to: /^api\/(modules|plugins)\//,
  },
  {
    name: 'lib is a leaf',
    why: 'api/lib holds small helpers every layer may use, so it uses none of them',
    from: /^api\/lib\//,
    to: /^api\/(modules|plugins|adapters|services|app|main|server|supervisor|boot|deps)/,
  },
  {
    name: 'modules do not reach up',
    why: 'api/services.ts and api/app.ts build and wire the modules; a module takes the service types it calls',
    from: /^api\/modules\//,
    to: /^api\/(services|app|main|server|supervisor|boot|deps)\.ts$/,
  },
  {
    name: 'modules use adapters through their types',
    why: 'which adapter runs is decided by the wiring (api/deps.ts); a module knows only the interfaces',
    from: /^api\/modules\//,
    to: /^api\/adapters\//,
    except: /^api\/adapters\/types\.ts$/,
  },
  {
    name: 'services speak the domain',
    why: 'services throw domain errors (api/lib/domain-errors.ts) and know no HTTP; only routes (index.ts) use plugins',
    from: /^api\/modules\/[^/]+\/(?!index\.ts$)[^/]+$/,
    to: /^api\/plugins\//,
  },
]

/** The rules an import from `from` to `to` (both relative to the repository root) breaks. */
export function brokenRules(
  from: string,
  to: string,
  rules: readonly ImportRule[] = IMPORT_RULES,
): ImportRule[] {
  return rules.filter((rule) => rule.from.test(from) && rule.to.test(to) && !(rule.except?.test(to) ?? false))
}
