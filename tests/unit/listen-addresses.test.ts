import { describe, expect, test } from 'bun:test'
import type { NetworkInterfaceInfo } from 'node:os'
import { listeningAddresses } from '../../api/lib/listen-addresses'

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/24`,
})
const v6 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: 'ffff:ffff:ffff:ffff::',
  family: 'IPv6',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/64`,
  scopeid: 0,
})

const machine = {
  eth0: [v4('192.168.1.20'), v6('fd00::20'), v6('fe80::1')],
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  wlan0: [v4('10.0.0.7')],
}

describe('the addresses printed at start', () => {
  test('bound to 0.0.0.0: localhost and every IPv4 address, loopback first', () => {
    expect(listeningAddresses('0.0.0.0', 4321, machine)).toEqual([
      'http://localhost:4321',
      'http://127.0.0.1:4321',
      'http://192.168.1.20:4321',
      'http://10.0.0.7:4321',
    ])
  })

  test('bound to ::: IPv6 addresses too, in brackets, without link-local ones (they need a zone)', () => {
    expect(listeningAddresses('::', 4321, machine)).toEqual([
      'http://localhost:4321',
      'http://127.0.0.1:4321',
      'http://[::1]:4321',
      'http://192.168.1.20:4321',
      'http://[fd00::20]:4321',
      'http://10.0.0.7:4321',
    ])
  })

  test('bound to one address: that address only', () => {
    expect(listeningAddresses('127.0.0.1', 4321, machine)).toEqual(['http://127.0.0.1:4321'])
    expect(listeningAddresses('::1', 8080, machine)).toEqual(['http://[::1]:8080'])
    expect(listeningAddresses('localhost', 4321, machine)).toEqual(['http://localhost:4321'])
  })

  test("this machine's own interfaces, as the server reads them", () => {
    const addresses = listeningAddresses('0.0.0.0', 4321)
    expect(addresses[0]).toBe('http://localhost:4321')
    expect(addresses).toContain('http://127.0.0.1:4321')
  })
})
