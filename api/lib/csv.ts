/**
 * CSV as spreadsheets read it (RFC 4180): fields separated by commas, rows ended by CRLF, a field quoted
 * when it holds a comma, a quote or a line break, with its quotes doubled.
 *
 * A spreadsheet runs a cell that starts with = + - or @ as a formula (and a tab or carriage return can hide
 * such a start), so a customer named '=HYPERLINK(…)' could put a live link or worse in the accountant's
 * sheet. Such a cell gets a leading apostrophe, which makes the spreadsheet show it as text
 * (OWASP, CSV injection).
 */

const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/

/** One field, made safe to open in a spreadsheet and quoted as needed. */
export function csvCell(value: string | number): string {
  let text = String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One row, with its line ending. */
export function csvRow(values: readonly (string | number)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`
}

/**
 * Put before the first row: without it, Excel reads a CSV file as the computer's legacy code page and
 * garbles every name with an accent. Other tools skip it.
 */
export const UTF8_BOM = '\uFEFF'
