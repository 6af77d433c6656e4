/**
 * Number formats shared by the terminal table, the progress line and the HTML report. The
 * locale is fixed so output does not change with the machine it runs on.
 *
 * @module
 */

const INTEGER = new Intl.NumberFormat('en-US')

/** `12345` → `12,345`. @category utils */
export const num = (n: number): string => INTEGER.format(n)

/** `0.1234` → `12.3%`. @category utils */
export const pct = (f: number): string => `${(f * 100).toFixed(1)}%`
