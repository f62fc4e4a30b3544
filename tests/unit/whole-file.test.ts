import { afterEach, beforeEach, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeWhole } from '../../api/lib/whole-file'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'whole-file-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

test('the first file makes its folder; a folder removed since is made again', async () => {
  const path = join(root, 'outbox', 'one.eml')
  await writeWhole(path, 'first')
  expect(readFileSync(path, 'utf8')).toBe('first')
  rmSync(join(root, 'outbox'), { recursive: true })
  await writeWhole(join(root, 'outbox', 'two.eml'), 'second')
  expect(readdirSync(join(root, 'outbox'))).toEqual(['two.eml'])
})

test('a write that fails leaves neither the file nor its part', async () => {
  const folder = join(root, 'labels')
  await writeWhole(join(folder, 'a.pdf'), 'a')
  // The renamed file's place is taken by a folder: the rename fails after the part was written.
  const path = join(folder, 'b.pdf')
  await writeWhole(join(path, 'inside'), 'x')
  await expect(writeWhole(path, 'b')).rejects.toThrow()
  expect(existsSync(`${path}.partial`)).toBe(false)
  expect(readdirSync(folder).sort()).toEqual(['a.pdf', 'b.pdf'])
})
