import { describe, expect, test } from 'bun:test'
import { MEMORY_SETTINGS, missingMemorySettings } from '../../api/memory-settings'

describe('the memory settings the server starts itself with', () => {
  test('an environment without them lacks every one', () => {
    expect(missingMemorySettings({ PORT: '4321' })).toEqual({ ...MEMORY_SETTINGS })
  })

  test("an operator's own value is kept, and only the others are added", () => {
    const missing = missingMemorySettings({ BUN_JSC_heapGrowthMaxIncrease: '1.5' })
    expect(missing).not.toHaveProperty('BUN_JSC_heapGrowthMaxIncrease')
    expect(missing).toEqual({ MIMALLOC_PURGE_DELAY: MEMORY_SETTINGS.MIMALLOC_PURGE_DELAY })
  })

  test('nothing is missing once all are set, so the restarted process does not restart again', () => {
    expect(missingMemorySettings({ ...MEMORY_SETTINGS })).toEqual({})
  })
})
