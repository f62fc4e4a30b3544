/**
 * Page background per theme, for the browser UI colour (`<meta name="theme-color">`). Its own module: the
 * theme switch loads it on every page, without the head script's text (./theme-script.ts).
 */
export const THEME_COLORS = { light: '#f7f3ec', dark: '#14120f' } as const
