import { defineConfig, presetWind3 } from 'unocss'

// Colours are CSS variables (site/styles/theme.css) so light and dark themes swap without re-rendering.
export default defineConfig({
  presets: [presetWind3({ dark: 'class' })],
  theme: {
    colors: {
      bg: 'var(--c-bg)',
      surface: 'var(--c-surface)',
      ink: 'var(--c-ink)',
      muted: 'var(--c-muted)',
      line: 'var(--c-line)',
      brand: 'var(--c-brand)',
      'brand-ink': 'var(--c-brand-ink)',
      accent: 'var(--c-accent)',
      danger: 'var(--c-danger)',
      success: 'var(--c-success)',
    },
    fontFamily: {
      display: 'var(--f-display)',
      body: 'var(--f-body)',
    },
  },
  shortcuts: {
    // Buttons and fields are at least 44 px tall, a thumb's size (WCAG 2.5.5), even where a page makes their
    // padding smaller ('Back to Cart', the account's 'Edit').
    btn: 'inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-5 py-3 font-semibold uppercase tracking-wide transition-colors focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:opacity-60 disabled:cursor-not-allowed',
    // Hover changes shape, not colour: fading the fill would drop text contrast below WCAG AA.
    'btn-primary': 'btn bg-brand text-brand-ink shadow-sm hover:shadow-md hover:underline underline-offset-4',
    'btn-outline': 'btn border-2 border-ink text-ink hover:bg-ink hover:text-bg',
    container: 'mx-auto w-full max-w-6xl px-4 sm:px-6',
    field:
      'w-full min-h-11 rounded-md border border-line bg-surface px-3 py-2 text-ink placeholder:text-muted focus:outline focus:outline-2 focus:outline-brand',
  },
})
