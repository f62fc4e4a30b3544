import { depsFromConfig } from '../api/deps'
import { ConfigError, readConfig } from '../api/env'
import {
  type PasswordSource,
  REPLACED_BECAUSE,
  STAFF_PASSWORD_MIN_LENGTH,
  type StaffAccounts,
  StaffCommandError,
} from '../api/modules/account/staff'
import { createServices } from '../api/services'
import { openDatabase } from '../db/client'

const USAGE = `Usage:
  npm run staff -- add <email> [--name "First Last"]
  npm run staff -- remove <email>
  npm run staff -- list

A new staff account's password is asked for without echo, or read from STAFF_PASSWORD
(at least ${STAFF_PASSWORD_MIN_LENGTH} characters). An existing account whose e-mail was never verified, or a
customer's with a password, is signed out everywhere and its password replaced: by the one given, or,
with none given (Enter at the prompt, or no terminal and no STAFF_PASSWORD), by a link e-mailed to the
address to set one. A verified account that signs in with Google only is made staff as it is.`

class UsageError extends Error {}

/** Reads one line from the terminal without showing what is typed. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin
  return new Promise((resolveLine, reject) => {
    let typed = ''
    process.stdout.write(prompt)
    input.setRawMode(true)
    input.resume()
    input.setEncoding('utf8')
    const finish = (error?: Error) => {
      input.setRawMode(false)
      input.pause()
      input.off('data', onData)
      process.stdout.write('\n')
      if (error) reject(error)
      else resolveLine(typed)
    }
    function onData(chunk: string) {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish()
        if (char === '\u0003' || char === '\u0004') return finish(new UsageError('Cancelled.'))
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1)
        else if (char >= ' ') typed += char
      }
    }
    input.on('data', onData)
  })
}

/** Typed twice at the terminal without echo; an empty first entry is null when `optional`. */
async function typePassword(prompt: string, optional: boolean): Promise<string | null> {
  const first = await readHidden(prompt)
  if (optional && first === '') return null
  const again = await readHidden('The same password again: ')
  if (first !== again) throw new UsageError('The two passwords differ. Nothing was changed.')
  return first
}

/**
 * STAFF_PASSWORD, else typed at the terminal. Never printed, never logged. For an existing account whose
 * password is being replaced, none (no terminal, or Enter) means "e-mail a link to set one".
 */
const askPassword: PasswordSource = async (purpose) => {
  const fromEnv = process.env.STAFF_PASSWORD
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv
  if (!process.stdin.isTTY) {
    if (purpose !== 'new-account') return null
    throw new UsageError('No terminal to type a password in: set STAFF_PASSWORD for this command.')
  }
  if (purpose !== 'new-account') {
    console.log(`This account's password will be replaced: ${REPLACED_BECAUSE[purpose]}.`)
    return typePassword(
      `New password (at least ${STAFF_PASSWORD_MIN_LENGTH} characters), or Enter to e-mail a link to set one: `,
      true,
    )
  }
  return typePassword(
    `Password for the new account (at least ${STAFF_PASSWORD_MIN_LENGTH} characters): `,
    false,
  )
}

/** What `add` did, in words for whoever runs it. */
function addReport(result: Awaited<ReturnType<StaffAccounts['add']>>): string {
  const { outcome, credentials, because, user } = result
  if (outcome === 'created')
    return `Created ${user.email} as staff. They can sign in at /login and open /dashboard.`
  const head = outcome === 'promoted' ? `${user.email} is staff now.` : `${user.email} was staff already.`
  if (credentials === 'kept') {
    return outcome === 'promoted'
      ? `${head} Its e-mail is verified and it signs in with Google only, so its sign-in stays as it was.`
      : `${user.email} is staff already and its e-mail is verified. Nothing changed.`
  }
  const reason = REPLACED_BECAUSE[because ?? 'unverified']
  const why = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`
  const ended = 'and every session of the account has ended.'
  const link = `was e-mailed to ${user.email} (it works once, for 1 hour; "Forgot Password" on /login sends another).`
  if (because === 'no-way-in') {
    return credentials === 'replaced'
      ? `${head} ${why}, so the one given is its password now, ${ended}`
      : `${head} ${why}, so a link to set a password ${link}`
  }
  if (credentials === 'replaced')
    return `${head} ${why}, so its password was replaced with the one given ${ended}`
  return `${head} ${why}, so its password was removed ${ended} A link to set a new password ${link}`
}

function nameOption(args: string[]): { firstName: string; lastName: string } | undefined {
  const at = args.indexOf('--name')
  if (at < 0) return undefined
  const full = args[at + 1]?.trim()
  if (!full) throw new UsageError('--name needs a value, like --name "Jo Mason".')
  const [firstName = '', ...rest] = full.split(/\s+/)
  return { firstName, lastName: rest.join(' ') }
}

async function main(args: string[]): Promise<void> {
  const [command, email] = args
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE)
    return
  }
  if (!['add', 'remove', 'list'].includes(command)) throw new UsageError(`Unknown command "${command}".`)
  if (command !== 'list' && (!email || email.startsWith('--'))) {
    throw new UsageError(`"${command}" needs an e-mail address.`)
  }

  const config = readConfig()
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken)
  try {
    // Staff accounts need no waitlists: the newsletter's teasers are not read here.
    const services = createServices(depsFromConfig(config, database.db, { waitlists: [] }))
    const staff = services.staff
    if (command === 'list') {
      const members = await staff.list()
      if (members.length === 0)
        console.log('No staff accounts yet. Add one with: npm run staff -- add <email>')
      for (const member of members) {
        const name = `${member.firstName} ${member.lastName}`.trim()
        console.log(`${member.email}${name ? `  (${name})` : ''}`)
      }
      return
    }
    if (command === 'add') {
      console.log(addReport(await staff.add(email as string, askPassword, nameOption(args))))
      return
    }
    const { outcome, user } = await staff.remove(email as string)
    console.log(
      outcome === 'removed'
        ? `${user.email} is no longer staff and has been signed out everywhere.`
        : `${user.email} was not staff; they have been signed out everywhere all the same.`,
    )
  } finally {
    database.close()
  }
}

try {
  await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof UsageError || error instanceof StaffCommandError || error instanceof ConfigError) {
    console.error(error.message)
    if (error instanceof UsageError) console.error(`\n${USAGE}`)
    process.exit(1)
  }
  throw error
}
