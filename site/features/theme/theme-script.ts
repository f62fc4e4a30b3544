import { THEME_COLORS } from './colors'

/**
 * Runs in <head> before the first paint, so a dark-theme visitor never sees a light flash. It is inline
 * (no module, no defer) on purpose; the layout adds its hash to the page's CSP. Keep it tiny and ES5.
 */
export const THEME_SCRIPT = `(function(){var d=document.documentElement,t;try{t=localStorage.getItem('theme')}catch(e){}if(t!=='light'&&t!=='dark')t=window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';d.classList.toggle('dark',t==='dark');var m=document.querySelector('meta[name=theme-color]');if(m)m.setAttribute('content',t==='dark'?'${THEME_COLORS.dark}':'${THEME_COLORS.light}')})()`
