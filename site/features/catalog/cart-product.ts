import type { CollectionEntry } from 'astro:content'
import type { CartProduct } from '../cart/store'

/** What an add-to-cart button carries (as JSON in `data-product`): the cart's view of a product. */
export function cartProductOf(product: CollectionEntry<'products'>['data']): CartProduct {
  const { id, name, slug, category, price, weight, image } = product
  return { id, name, slug, category, price, weight, image: image.src }
}
