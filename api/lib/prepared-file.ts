import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlib } from 'node:zlib'

/** An answer kept ready in memory: the bytes, their compressed forms and the validators. */
export interface StaticFile {
  body: Uint8Array<ArrayBuffer>
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
 * ETag so a repeat visit costs a 304.
 */
export function prepareFile(
  body: Uint8Array<ArrayBuffer>,
  options: {
    type: string
    cacheControl: string
    compressible: boolean
    precompressed?: { br: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> } | null
  },
): StaticFile {
  const forms =
    options.compressible && body.byteLength > MIN_COMPRESSED_BYTES
      ? (options.precompressed ?? compress(body))
      : null
  return {
    body,
    br: forms?.br ?? null,
    gzip: forms?.gzip ?? null,
    type: options.type,
    etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`,
    cacheControl: options.cacheControl,
  }
}
