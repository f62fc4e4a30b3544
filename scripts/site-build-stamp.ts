// What the site build in dist/ was made from, so `npm run test:e2e` can skip building the same files again.
// The fingerprint is a hash of every file the build reads (the pages, the content, the shared rules, the
// public files, the configuration and the locked dependencies) and of the address it was built for; it is
// kept outside dist/, which the server serves to anyone.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { filesUnder } from './files-under'

/** Everything `astro build` and the precompression after it read, relative to the repository's root. */
const BUILD_INPUTS = [
  'site',
  'content',
  'core',
  'public',
  'astro.config.mjs',
  'uno.config.ts',
  'tsconfig.json',
  'package-lock.json',
  'scripts/precompress.ts',
]

/** Kept beside the content types `astro sync` writes (git ignores .astro/). */
const STAMP_FILE = '.astro/site-build-inputs'

export function siteBuildFingerprint(root: string, publicUrl: string): string {
  const hasher = new Bun.CryptoHasher('sha256')
  hasher.update(`PUBLIC_URL=${publicUrl}\n`)
  for (const input of BUILD_INPUTS) {
    for (const file of filesUnder(join(root, input))) {
      hasher.update(`${file.slice(root.length)}\n`)
      hasher.update(readFileSync(file))
    }
  }
  return hasher.digest('hex')
}

/**
 * The stamp names the inputs and the build they made (its home page's modification time): a build made
 * since by another command, for another address, is not taken for this one.
 */
function stampFor(root: string, fingerprint: string): string | undefined {
  const home = join(root, 'dist', 'index.html')
  return existsSync(home) ? `${fingerprint} ${statSync(home).mtimeMs}` : undefined
}

/** Whether dist/ holds a finished build of exactly these inputs. */
export function siteBuildIsCurrent(root: string, fingerprint: string): boolean {
  const stamp = join(root, STAMP_FILE)
  const expected = stampFor(root, fingerprint)
  return expected !== undefined && existsSync(stamp) && readFileSync(stamp, 'utf8') === expected
}

/** Written after the build and its precompression have both finished. */
export function recordSiteBuild(root: string, fingerprint: string): void {
  const stamp = stampFor(root, fingerprint)
  if (!stamp) return
  mkdirSync(dirname(join(root, STAMP_FILE)), { recursive: true })
  writeFileSync(join(root, STAMP_FILE), stamp)
}
