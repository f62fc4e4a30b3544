import { generateToken } from './sessions'

/**
 * How hard a password hash is to compute. 'strong' is argon2id at Bun's own settings (64 MiB, two passes:
 * about 0.12 s of CPU, docs/decisions/020), what every shop runs. 'test' is the same algorithm at its
 * lightest, for test runs only (NODE_ENV=test and PASSWORD_HASH=test): their hundreds of sign-ups and
 * sign-ins would otherwise spend minutes of CPU hashing. A hash carries its own settings, so either
 * verifies any stored hash.
 */
export type PasswordStrength = 'strong' | 'test'

const SETTINGS = {
  strong: { algorithm: 'argon2id', memoryCost: 65_536, timeCost: 2 },
  test: { algorithm: 'argon2id', memoryCost: 1_024, timeCost: 1 },
} as const

export interface Passwords {
  hash(password: string): Promise<string>
  verify(password: string, hash: string): Promise<boolean>
  /**
   * A hash of nothing anyone knows, at the same strength: a sign-in for an unknown e-mail checks a password
   * against it, so it takes as long as one for a real account and the timing does not tell them apart.
   */
  decoy(): Promise<string>
}

export function createPasswords(strength: PasswordStrength): Passwords {
  const settings = SETTINGS[strength]
  let decoyHash: Promise<string> | null = null
  return {
    hash: (password) => Bun.password.hash(password, settings),
    verify: (password, hash) => Bun.password.verify(password, hash),
    decoy() {
      decoyHash ??= Bun.password.hash(generateToken(), settings)
      return decoyHash
    },
  }
}
