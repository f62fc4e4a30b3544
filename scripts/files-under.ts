// Every file under a folder, for the scripts that read the tree (the checks, the budget, the build stamp).
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The files under `path` (or `path` itself when it is a file), in name order at every level, so what is
 * made of them (a hash, a list) is the same from run to run. `skip` leaves out a file or folder by its name;
 * a path that does not exist has none.
 */
export function filesUnder(path: string, skip: (name: string) => boolean = () => false): string[] {
  if (!existsSync(path)) return []
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path)
    .sort()
    .flatMap((name) => (skip(name) ? [] : filesUnder(join(path, name), skip)))
}

/** Folders a person's checks never read: installed packages and dot-folders (caches, git). */
export const notOurs = (name: string) => name === 'node_modules' || name.startsWith('.')
