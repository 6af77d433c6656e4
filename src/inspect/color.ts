/**
 * When the terminal output may be coloured: on a TTY, unless `NO_COLOR` is set to a
 * non-empty value (no-color.org) or the terminal is `dumb`.
 *
 * @module
 */

/**
 * Whether to colour what is written to `out`.
 *
 * @example
 * renderExplain(table, { color: useColor(process.stderr, process.env), width: process.stderr.columns ?? 80 })
 * @category utils
 * @since 0.1.0
 */
export const useColor = (out: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean =>
  out.isTTY === true && (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb'
