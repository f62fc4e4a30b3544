// The server reads the content files at boot in a child process (api/content-at-boot.ts), so the checking
// code does not stay loaded in it: the child's answer is what the files say, a mistake in a file comes back
// with the build's own message, and the server's modules load none of the content schema's code.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ContentFileError, readShopContent } from '../../../api/content-at-boot'
import { loadCatalogFromContent, PRODUCT_CONTENT_DIR } from '../../../api/modules/catalog/content'
import { waitlistsFromContent } from '../../../api/modules/newsletter/waitlists'
import { contentFileForElsewhere } from '../support/content-files'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function productFolder(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'boot-content-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'whisker-oil.mdx'), text)
  return dir
}

const wellWritten = contentFileForElsewhere(join(PRODUCT_CONTENT_DIR, 'whisker-oil.mdx'))

describe('the content files read at boot', () => {
  test("are the products and waitlists the build's own reading gives", () => {
    const content = readShopContent()
    expect(content.products).toEqual(loadCatalogFromContent())
    expect(content.products.map((product) => product.slug)).toEqual([
      'whisker-oil',
      'whisker-tamer',
      'whisker-wash',
      'repair',
      'accessories',
    ])
    expect(content.waitlists).toEqual(waitlistsFromContent())
    expect(content.waitlists).toEqual(['supply-drop'])
  })

  test('a mistake in a product file stops the boot with the message the build gives', () => {
    const folder = productFolder(wellWritten.replace(/^price: .*$/m, "price: '21.999'"))
    let inProcess = ''
    try {
      loadCatalogFromContent(folder)
    } catch (error) {
      inProcess = (error as Error).message
    }
    expect(inProcess).toContain('price: write it in dollars and cents, like 19.00 (got "21.999")')
    expect(() => readShopContent({ products: folder })).toThrow(ContentFileError)
    expect(() => readShopContent({ products: folder })).toThrow(inProcess)
  })

  test('a folder that cannot be read is a fault, not a content mistake', () => {
    // A file where the folder should be: listing it fails in the child.
    const notAFolder = join(productFolder(wellWritten), 'whisker-oil.mdx')
    let thrown: unknown
    try {
      readShopContent({ products: notAFolder })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect(thrown).not.toBeInstanceOf(ContentFileError)
    expect((thrown as Error).message).toStartWith('Reading the content files failed: ')
    expect((thrown as Error).message).toContain('ENOTDIR')
  })

  test("the server's modules load none of the content schema's code", () => {
    // A fresh process, as the server starts: which modules does loading the server bring in?
    const probe = Bun.spawnSync(
      [
        process.execPath,
        '-e',
        `await import(${JSON.stringify(resolve(import.meta.dir, '../../../api/server.ts'))});` +
          'console.log(JSON.stringify(Object.keys(require.cache)))',
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    expect(probe.stderr.toString()).toBe('')
    const loaded = JSON.parse(probe.stdout.toString()) as string[]
    expect(loaded.some((path) => path.endsWith('/api/server.ts'))).toBe(true)
    const contentCode = loaded.filter((path) =>
      /\/content\/(read|schema)\.ts$|\/node_modules\/(zod|js-yaml|yaml|smol-toml)\//.test(path),
    )
    expect(contentCode).toEqual([])
  })
})
