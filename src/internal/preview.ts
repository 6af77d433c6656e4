/**
 * A text's preview: the one clipper behind every "start of the text" gssc shows (a branch's
 * last message, a packet in the CLI report, the task a session build picked). One line,
 * cut at a code point boundary with `…`, so a preview never holds half an emoji.
 *
 * @module
 */

/**
 * The text cut to at most `chars` UTF-16 units, ending in `…` when cut, never between the
 * halves of a surrogate pair.
 *
 * @example
 * clip('abcdef', 4) // 'abc…'
 * @category utils
 */
export const clip = (text: string, chars: number): string => {
  if (text.length <= chars) return text
  const end = Math.max(0, chars - 1)
  const safe = end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800 ? end - 1 : end
  return `${text.slice(0, safe)}…`
}

/**
 * The text on one line (every whitespace run one space, trimmed), {@link clip}ped to `chars`.
 *
 * @example
 * preview('Why does\n  the build fail?', 12) // 'Why does th…'
 * @category utils
 */
export const preview = (text: string, chars: number): string => clip(text.replace(/\s+/g, ' ').trim(), chars)
