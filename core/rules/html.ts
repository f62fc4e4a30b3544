/**
 * Text made safe to place in HTML or XML: element content and quoted attribute values. The one escape the
 * shop uses, for its e-mails and for the social cards' SVG alike.
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}
