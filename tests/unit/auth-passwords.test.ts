import { expect, test } from 'bun:test'
import { createPasswords } from '../../api/modules/auth/passwords'

test('the shop hashes with argon2id at 64 MiB and two passes; test runs at the lightest, and each verifies the other', async () => {
  const strong = createPasswords('strong')
  const light = createPasswords('test')
  const strongHash = await strong.hash('correct horse')
  const lightHash = await light.hash('correct horse')
  expect(strongHash).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$')
  expect(lightHash).toStartWith('$argon2id$v=19$m=1024,t=1,p=1$')
  expect(await light.verify('correct horse', strongHash)).toBe(true)
  expect(await strong.verify('correct horse', lightHash)).toBe(true)
  expect(await strong.verify('wrong horse', strongHash)).toBe(false)
})

test('the decoy is made once, at the strength of the real hashes, and no password anyone knows opens it', async () => {
  const strong = createPasswords('strong')
  const decoy = await strong.decoy()
  expect(decoy).toStartWith('$argon2id$v=19$m=65536,t=2,p=1$')
  expect(await strong.decoy()).toBe(decoy)
  expect(await strong.verify('', decoy)).toBe(false)
})
