/**
 * SHA-256 digests and HMACs for the paths every shopper's request takes, through Bun's native hasher.
 * node:crypto's createHash and createHmac are streams under Bun and allocate about 0.65 and 1.3 KB each,
 * against about 0.12 and 0.15 KB here (JavaScriptCore's own count of bytes allocated between collections,
 * 200,000 of each): a rate quote makes five of them, and every byte a request allocates brings the
 * collector's next pause nearer (BENCHMARKS.md).
 */

/** A plain digest needs no hasher object: the one-shot form allocates only its answer. */
export function sha256Hex(text: string): string {
  return Bun.CryptoHasher.hash('sha256', text, 'hex')
}

export function hmacSha256(key: Uint8Array | string, text: string): Buffer {
  return new Bun.CryptoHasher('sha256', key).update(text).digest() as Buffer
}
