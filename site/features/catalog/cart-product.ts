import { getImage } from 'astro:assets'
import type { CollectionEntry } from 'astro:content'
import type { CartProduct } from '../cart/store'

/** The cart shows a line's picture at 96 CSS pixels: a copy twice that wide, not the editor's original. */
const CART_PICTURE_PX = 192

/**
 * What an add-to-cart button carries (as JSON in `data-product`): the cart's view of a product, its picture
 * a small copy the build makes (an editor's photo may be 2 MB; the cart and /shipping list several).
 */
export async function cartProductOf(product: CollectionEntry<'products'>['data']): Promise<CartProduct> {
  const { id, name, slug, category, price, weight, image } = product
  // A drawing (SVG) is the same file at any size.
  const picture =
    image.format === 'svg'
      ? image.src
      : (await getImage({ src: image, width: CART_PICTURE_PX, height: CART_PICTURE_PX })).src
  return { id, name, slug, category, price, weight, image: picture }
}
