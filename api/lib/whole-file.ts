/**
 * Writing a file whole or not at all, for the built-in stand-ins' records (the outbox's messages, the demo
 * carrier's labels): a reader never takes a half-written file for a finished one.
 */
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

const missingFolder = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'

/**
 * Writes `content` beside `path` and renames it there once complete. A full disk stops a write part-way:
 * the part is removed, so it holds no room the next try needs. The folder is made only when the write
 * finds it missing (the first file, or one removed since), not asked for before every file.
 */
export async function writeWhole(path: string, content: string | Uint8Array): Promise<void> {
  const partial = `${path}.partial`
  try {
    try {
      await writeFile(partial, content)
    } catch (error) {
      if (!missingFolder(error)) throw error
      await mkdir(dirname(path), { recursive: true })
      await writeFile(partial, content)
    }
    await rename(partial, path)
  } catch (error) {
    await unlink(partial).catch(() => undefined)
    throw error
  }
}
