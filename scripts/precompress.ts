// After `astro build`: writes a .br and a .gz beside every compressible file of dist/, so the server starts
// by reading them instead of spending seconds compressing the site (api/plugins/static-site.ts).
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { compress } from '../api/lib/prepared-file'
import { isCompressible, walk } from '../api/plugins/static-site'

const dist = resolve(process.argv[2] ?? 'dist')
let written = 0
for (const file of walk(dist)) {
  const body = new Uint8Array(readFileSync(file))
  if (!isCompressible(file, body.byteLength)) continue
  const forms = compress(body)
  writeFileSync(`${file}.br`, forms.br)
  writeFileSync(`${file}.gz`, forms.gzip)
  written += 1
}
console.log(`Precompressed ${written} files in ${dist}`)
