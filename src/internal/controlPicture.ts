/**
 * The visible stand-in for a character that must not be written as it is (in a terminal, or
 * in XML, which cannot hold most C0 controls even as character references): the Unicode
 * Control Pictures for C0 controls (ESC shows as ␛, NUL as ␀), ␡ for DEL, and U+FFFD (�) for
 * anything else (C1 controls, lone surrogates, U+FFFE/U+FFFF).
 *
 * @module
 */

/** @category utils */
export const controlPicture = (c: string): string => {
  const code = c.charCodeAt(0)
  return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd'
}
