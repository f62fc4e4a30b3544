/**
 * What the server takes from the content files at boot: the products it sells (their prices, weights and
 * names) and the teasers with a waitlist form. The files are read and checked exactly as the site build
 * reads them (content/read.ts, the build's schemas and frontmatter parser), but in a child process: the
 * checking code (zod, a YAML and a TOML parser, about 110 modules) would otherwise stay loaded for the
 * life of the server, and memory held for good costs several times its size at the peak of a load
 * (BENCHMARKS.md, "Memory under load"). The child answers with JSON and exits; a mistake in a product file
 * comes back as the same message the build and `npm run check:content` give.
 *
 * Run directly (`bun api/content-at-boot.ts [dirs as JSON]`), this file is that child.
 */
import type { ContentProduct } from './modules/catalog/content'

export interface ShopContent {
  /** The published products, by id. */
  products: ContentProduct[]
  /** The published teasers with `waitlist: true`, by file name. */
  waitlists: string[]
}

/** Other folders than the shop's own content/products and content/teasers (the tests' broken files). */
export interface ContentFolders {
  products?: string
  teasers?: string
}

/** A mistake in a content file: the message names the file, the line, the field and the fix. */
export class ContentFileError extends Error {}

/** The child's exit code for a mistake in a file (anything else non-zero is a crash). */
const CONTENT_MISTAKE_EXIT = 3
/** Reading five product files takes well under a second; a child stuck longer than this is a fault. */
const CHILD_TIMEOUT_MS = 30_000

/** Reads and checks the content files in a child process (see above). */
export function readShopContent(folders: ContentFolders = {}): ShopContent {
  const child = Bun.spawnSync([process.execPath, import.meta.path, JSON.stringify(folders)], {
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: CHILD_TIMEOUT_MS,
  })
  const errors = child.stderr.toString().trim()
  if (child.exitCode === CONTENT_MISTAKE_EXIT) throw new ContentFileError(errors)
  if (!child.success) {
    const how = child.exitCode === null ? `was stopped (${child.signalCode ?? 'timed out'})` : `failed`
    throw new Error(`Reading the content files ${how}: ${errors || 'no message'}`)
  }
  return JSON.parse(child.stdout.toString()) as ShopContent
}

/** The child: reads the files with the build's own checks and writes them as JSON on stdout. */
async function answerAsChild(folders: ContentFolders): Promise<void> {
  const { CatalogContentError, loadCatalogFromContent } = await import('./modules/catalog/content')
  const { waitlistsFromContent } = await import('./modules/newsletter/waitlists')
  try {
    const content: ShopContent = {
      products: loadCatalogFromContent(folders.products),
      waitlists: waitlistsFromContent(folders.teasers),
    }
    process.stdout.write(JSON.stringify(content))
  } catch (error) {
    if (!(error instanceof CatalogContentError)) throw error
    process.stderr.write(error.message)
    process.exit(CONTENT_MISTAKE_EXIT)
  }
}

if (import.meta.main) await answerAsChild(JSON.parse(process.argv[2] ?? '{}') as ContentFolders)
