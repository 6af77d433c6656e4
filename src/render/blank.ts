/**
 * Whether a text has anything besides whitespace: what "empty" means to the providers.
 *
 * @module
 */

/**
 * True when `s` has a non-whitespace character. Same whitespace as `String.prototype.trim`,
 * without copying a long text to find out.
 *
 * @category utils
 * @since 0.1.0
 */
export const hasText = (s: string): boolean => /\S/.test(s)
