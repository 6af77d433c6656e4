/**
 * Horizontal bars in block characters, with eighth-of-a-cell resolution, so a 30-cell bar
 * tells 0.4% apart.
 *
 * @module
 */

const PARTIAL = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const
const FULL = '█'

/**
 * How many eighths of a cell a fraction fills. Any non-zero fraction shows at least one
 * eighth, so a small section is still visible.
 *
 * @category utils
 */
export const eighths = (fraction: number, cells: number): number => {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0))
  const e = Math.round(f * cells * 8)
  return f > 0 && e === 0 && cells > 0 ? 1 : e
}

/**
 * A bar of `fraction` (clamped to [0, 1]) of `cells` cells, padded with spaces to exactly
 * `cells` columns.
 *
 * @example
 * bar(0.5, 10) // '█████     '
 * bar(0.05, 10) // '▌         '
 * @category utils
 */
export const bar = (fraction: number, cells: number): string => {
  const e = eighths(fraction, cells)
  const drawn = FULL.repeat(Math.floor(e / 8)) + PARTIAL[e % 8 as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7]
  return drawn + ' '.repeat(Math.max(0, cells - [...drawn].length))
}

/**
 * The fraction a bar shows, read back from its characters (the inverse of {@link bar}, up to
 * one eighth of a cell).
 *
 * @category utils
 */
export const barFraction = (drawn: string, cells: number): number => {
  let e = 0
  for (const ch of drawn) e += ch === FULL ? 8 : Math.max(0, PARTIAL.indexOf(ch as (typeof PARTIAL)[number]))
  return cells > 0 ? e / (cells * 8) : 0
}
