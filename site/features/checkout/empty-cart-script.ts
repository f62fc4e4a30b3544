/**
 * Runs in the <head> of /shipping before anything paints or loads: with nothing in the saved cart, the page
 * goes straight back to /cart (docs/product.md#shipping) instead of painting a form and waiting for its
 * island's script to find out. The island checks again once it has read the cart properly (a saved cart
 * whose lines are all unreadable counts as empty there). Inline on purpose; the page adds its hash to its
 * CSP. Keep it tiny and ES5.
 */
export const EMPTY_CART_SCRIPT = `(function(){var c;try{c=JSON.parse(localStorage.getItem('cart')||'[]')}catch(e){c=[]}if(!(c instanceof Array)||c.length===0)location.replace('/cart')})()`
