// Text that a spreadsheet would run as a formula, made inert. Names and places in the payouts CSV come from
// partners, so a cell like `=HYPERLINK(…)` must open as text. Spreadsheets start a formula with = + - @ (and
// their fullwidth and small forms, which some of them read as the ASCII ones), may skip leading blanks first,
// treat a leading tab or carriage return as a cell break, and in many locales split a CSV line on `;`, so a
// formula can also start right after a `;` inside a cell. Each such start gets an apostrophe, the
// spreadsheets' own "this is text" mark.

const TRIGGER = '=+\\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B'
const FORMULA_START = new RegExp(`(^|;)(?=[\\t\\r]|\\s*[${TRIGGER}])`, 'g')

/** The text with an apostrophe before every place a spreadsheet could start a formula. */
export function defuseFormulas(text: string): string {
  return text.replace(FORMULA_START, "$1'")
}
