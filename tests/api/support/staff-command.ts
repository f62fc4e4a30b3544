import { join } from 'node:path'
import { ORIGIN, type TestApp } from './test-app'

/** Runs `npm run staff -- …` (scripts/staff.ts) against the shop's database, as staff would on the server. */
export async function staffCommand(
  shop: TestApp,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, '../../../scripts/staff.ts'), ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PASSWORD_HASH: 'test',
      PUBLIC_URL: ORIGIN,
      DATABASE_URL: shop.deps.config.databaseUrl,
      DATA_DIR: shop.deps.config.dataDir,
      DIST_DIR: join(shop.deps.config.dataDir, 'no-site'),
      ...env,
    },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code: await child.exited, out, err }
}
