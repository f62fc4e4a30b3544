import { isIP } from 'node:net'
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os'

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>

/** fe80::/10 addresses need a zone (`%eth0`) that browsers do not take in an address bar. */
const LINK_LOCAL_V6 = /^fe[89ab][0-9a-f]:/i

function urlFor(address: string, port: number): string {
  return `http://${isIP(address) === 6 ? `[${address}]` : address}:${port}`
}

/**
 * Every address a person can open the shop at, for the start-up log: the one address it is bound to, or,
 * bound to every interface (0.0.0.0, or :: which takes IPv4 too), localhost and each interface's IPv4
 * address, and its IPv6 ones when bound to ::. These are the addresses whose pages the origin check takes
 * besides PUBLIC_URL (api/plugins/security.ts).
 */
export function listeningAddresses(
  hostname: string,
  port: number,
  interfaces: Interfaces = networkInterfaces(),
): string[] {
  const bound = hostname.replace(/^\[(.*)\]$/, '$1')
  const everyV4 = bound === '0.0.0.0' || bound === '::' || bound === ''
  const everyV6 = bound === '::' || bound === ''
  if (!everyV4) return [urlFor(bound, port)]
  const found = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    // Loopback first, then the others, each family in the order the system lists them.
    .sort((a, b) => Number(b.internal) - Number(a.internal))
    .filter((info) => (info.family === 'IPv4' ? everyV4 : everyV6 && !LINK_LOCAL_V6.test(info.address)))
    .map((info) => urlFor(info.address, port))
  return [...new Set([urlFor('localhost', port), ...found])]
}
