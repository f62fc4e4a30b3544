import { createHash } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib'

/** An answer kept ready in memory: the bytes, their compressed forms and the validators. */
export interface StaticFile {
  /** The bytes as they are; null when only the compressed forms are kept (see `identityBody`). */
  body: Uint8Array<ArrayBuffer> | null
  br: Uint8Array<ArrayBuffer> | null
  gzip: Uint8Array<ArrayBuffer> | null
  type: string
  etag: string
  cacheControl: string
}

/** Files this small gain nothing from compression. */
export const MIN_COMPRESSED_BYTES = 512

/** Brotli and gzip with the strongest settings: answers are compressed rarely and sent often. */
export function compress(body: Uint8Array<ArrayBuffer>): {
  br: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
} {
  return {
    br: new Uint8Array(brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })),
    gzip: Bun.gzipSync(body, { level: 9 }),
  }
}

/**
 * Prepares bytes to be served from memory: compressed (unless `precompressed` forms are given) and given an
 * ETag so a repeat visit costs a 304. With `compressedOnly`, a file that has compressed forms keeps only
 * those: every browser asks for one, and the bytes as they are come from `identityBody` for a client that
 * does not (docs/decisions/001-one-process-static-site-in-memory.md).
 */
export function prepareFile(
  body: Uint8Array<ArrayBuffer>,
  options: {
    type: string
    cacheControl: string
    compressible: boolean
    precompressed?: { br: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> } | null
    compressedOnly?: boolean
  },
): StaticFile {
  const forms =
    options.compressible && body.byteLength > MIN_COMPRESSED_BYTES
      ? (options.precompressed ?? compress(body))
      : null
  return {
    body: forms && options.compressedOnly ? null : body,
    br: forms?.br ?? null,
    gzip: forms?.gzip ?? null,
    type: options.type,
    etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`,
    cacheControl: options.cacheControl,
  }
}

/**
 * The bytes as they are, for a client that takes neither compressed form (a script, a health check):
 * decompressed from the Brotli form when only the compressed forms are kept. Rare, and about 0.2 ms for the
 * largest page.
 */
export function identityBody(file: StaticFile): Uint8Array<ArrayBuffer> {
  if (file.body) return file.body
  if (!file.br) throw new Error('a prepared file keeps its bytes or their Brotli form')
  return new Uint8Array(brotliDecompressSync(file.br))
}
