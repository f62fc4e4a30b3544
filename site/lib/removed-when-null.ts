/**
 * A persistent store's encoder for a value that may be null: null removes the key from storage instead of
 * writing "null". A file of its own: ./storage.ts loads on every page (the cart badge), this only where the
 * cart is worked on.
 */
import type { PersistentEncoder } from '@nanostores/persistent'

/** `json`, with null encoded as undefined: the persistent store deletes a key whose encoded value is undefined. */
export function removedWhenNull<T>(json: PersistentEncoder<T | null>): PersistentEncoder<T | null> {
  return {
    decode: json.decode,
    encode: (value) => (value === null ? (undefined as unknown as string) : json.encode(value)),
  }
}
