import { describe, expect, test } from 'bun:test'
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
