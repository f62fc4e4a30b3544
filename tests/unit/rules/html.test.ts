import { describe, expect, test } from 'bun:test'
import { escapeHtml } from '@core/rules/html'

describe('escapeHtml', () => {
  test('makes text safe in element content and in quoted attributes, for HTML, SVG and e-mail alike', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    )
  })

  test('escapes an ampersand once, so text that looks escaped stays as it was typed', () => {
    expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;')
    expect(escapeHtml('Grit & Whisker')).toBe('Grit &amp; Whisker')
    expect(escapeHtml('')).toBe('')
  })
})
