interface ImportMetaEnv {
  /** True under `astro dev` (npm run dev), false in the build: drafts show in the preview only (astro.config.mjs). */
  readonly SHOW_DRAFTS: boolean
}

declare namespace Astro {
  interface ClientDirectives {
    /** Hydrate right after the first paint, or at the first idle moment after it (site/integrations/painted-directive.ts). */
    'client:painted'?: boolean | 'idle'
  }
}
