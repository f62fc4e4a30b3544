import { describe, expect, test } from 'bun:test'
import { limitKey } from '../../../api/lib/rate-counters'
import { clientAddress } from '../../../api/plugins/rate-limit'

describe('clientAddress', () => {
  test('with no trusted proxy the socket decides, whatever the header says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', 0)).toBe('198.51.100.1')
    expect(clientAddress(null, null, 0)).toBe('local')
  })

  test('behind one proxy the right-most entry is the client, whatever the client wrote before it', () => {
    expect(clientAddress('198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7')
    expect(clientAddress('6.6.6.6, 1.2.3.4, 198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7')
  })

  test('behind two proxies the second entry from the right is the client', () => {
    expect(clientAddress('6.6.6.6, 198.51.100.7, 10.0.0.3', '10.0.0.2', 2)).toBe('198.51.100.7')
  })

  test('a header shorter than the proxy chain falls back to its first entry, and no header to the socket', () => {
    expect(clientAddress('198.51.100.7', '10.0.0.2', 2)).toBe('198.51.100.7')
    expect(clientAddress(null, '10.0.0.2', 1)).toBe('10.0.0.2')
    expect(clientAddress(' , ', '10.0.0.2', 1)).toBe('10.0.0.2')
  })
})

describe('limitKey', () => {
  test('an IPv6 client is counted by its /64 network, however the address is written', () => {
    const key = limitKey('2001:db8:77:1::1')
    expect(key).toBe('2001:db8:77:1::/64')
    for (const same of [
      '2001:db8:77:1::ffff',
      '2001:0DB8:0077:0001:0000:0000:0000:0003',
      '2001:db8:77:1:a:b:c:d',
      '[2001:db8:77:1::9]',
      '2001:db8:77:1::1%eth0',
    ]) {
      expect([same, limitKey(same)]).toEqual([same, key])
    }
    expect(limitKey('2001:db8:77:2::1')).not.toBe(key)
    expect(limitKey('::1')).toBe('0:0:0:0::/64')
  })

  test('IPv4, IPv4 written as IPv6, and anything unparsable are counted as they are', () => {
    expect(limitKey('198.51.100.7')).toBe('198.51.100.7')
    expect(limitKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(limitKey('local')).toBe('local')
    expect(limitKey('not:an:address::at::all')).toBe('not:an:address::at::all')
  })
})
