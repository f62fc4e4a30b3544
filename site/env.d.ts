interface ImportMetaEnv {
  /** True under `astro dev` (npm run dev), false in the build: drafts show in the preview only (astro.config.mjs). */
  readonly SHOW_DRAFTS: boolean
}
