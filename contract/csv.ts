/**
 * Every CSV the platform writes, in the server's exports and in the files the console makes itself
 * (RFC 4180): CRLF line ends, quotes doubled, and a cell quoted when it holds a quote, a line break or
 * the separator of any spreadsheet convention (comma, semicolon, tab): a German or French spreadsheet
 * splits an unquoted `Csv;-ABS(1)` on the semicolon, and its second half would start a formula. A cell
 * a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading apostrophe, so an account name such as `=HYPERLINK(…)` arrives as text (OWASP, CSV
 * injection). A signed whole number (`+25`, `-5`: a licence change) is a number to any spreadsheet, not a
 * formula, and stays as it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_INTEGER = /^[+-][0-9]+$/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) && !SIGNED_INTEGER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
