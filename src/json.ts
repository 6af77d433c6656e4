/**
 * The one JSON decoding kit for user files (history, packets, chunk states): a BOM is
 * accepted wherever JSON is read, and a syntax error names the line and column on one line
 * (`history.json:4:7: not valid JSON: ',' expected`).
 *
 * `JSON.parse` does the parsing (it is the fastest); only when it fails is the text scanned
 * again with `jsonc-parser`, in strict JSON mode, to find where. V8's own message is not used:
 * it often gives no position at all (`Unexpected end of JSON input` for a file cut right
 * after a comma) and may quote a multi-line snippet of the input.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser'
import { inputError, type InputError } from './error.js'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The text without a leading byte order mark (editors on Windows write one).
 *
 * @category utils
 * @since 0.1.0
 */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)

/** jsonc-parser's error codes (by name: they are a const enum), in words. */
const PROBLEMS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected text',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: "':' is expected",
  CommaExpected: "',' is expected",
  CloseBraceExpected: "'}' is expected",
  CloseBracketExpected: "']' is expected",
  EndOfFileExpected: 'unexpected text after the value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape in a string',
  InvalidCharacter: 'a control character in a string (write it as an escape such as \\n)',
}

/** 1-based line and column (in UTF-16 units) of an offset. */
const position = (text: string, offset: number): { readonly line: number; readonly column: number } => {
  let line = 1
  let start = 0
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    start = i + 1
  }
  return { line, column: offset - start + 1 }
}

/** Where and what the first syntax error of a text is. */
const locate = (text: string, fallback: unknown): { readonly offset: number; readonly problem: string } => {
  const errors: ParseError[] = []
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const first = errors[0]
  if (first === undefined) {
    // the scanner found nothing (it should not happen): keep V8's words, on one line
    const v8 = fallback instanceof Error ? fallback.message : String(fallback)
    const at = /position (\d+)/.exec(v8)
    return { offset: at === null ? text.length : Number(at[1]), problem: v8.replace(/\s+/g, ' ') }
  }
  const code = printParseErrorCode(first.error)
  const problem = PROBLEMS[code] ?? code
  return { offset: first.offset, problem: first.offset >= text.trimEnd().length ? `the text ends too early: ${problem}` : problem }
}

/**
 * Parses JSON text, or returns an error naming `input`, line and column. `firstLine` is the
 * line the text starts on in its file (for one line of JSON Lines).
 *
 * @example
 * parseJson('history.json', '[{"role": "user"},\n')
 * // Left(history.json:2:1: not valid JSON: the text ends too early: a value is expected)
 * @category utils
 * @since 0.1.0
 */
export const parseJson = (input: string, text: string, firstLine = 1): E.Either<InputError, unknown> => {
  const body = stripBom(text)
  try {
    return E.right(JSON.parse(body) as unknown)
  } catch (e) {
    const { offset, problem } = locate(body, e)
    const { line, column } = position(body, offset)
    return E.left(inputError(input, `not valid JSON: ${problem}`, line + firstLine - 1, column))
  }
}
