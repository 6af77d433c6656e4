/**
 * XML elements as data, and their one-way rendering to text with escaping.
 *
 * Chunk content is untrusted (tool output, web pages, other agents), so both the body and
 * every attribute value are escaped: a tool result containing `</tool_result>` or `"` cannot
 * close its element or its attribute. Bodies escape only `&` and `<`, the two characters that
 * can start markup; `>` stays, so code such as `a => b` or `x -> y` reads (and tokenizes) as
 * written. Attribute values also escape `"` and line breaks/tabs (as character references, so
 * an attribute stays on one line). Any XML parser restores the original text exactly.
 *
 * @module
 */

/** An attribute value; `undefined` and `null` leave the attribute out. Objects render as JSON. */
export type AttrValue = string | number | boolean | null | undefined | object

/** `<tag a="…">\nbody\n</tag>` as data. */
export interface XmlElement {
  readonly tag: string
  readonly attrs: ReadonlyArray<readonly [string, AttrValue]>
  /** Raw (unescaped) text. */
  readonly body: string
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;' }
const ATTR_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' }

/**
 * Escapes element text: `&` → `&amp;`, `<` → `&lt;`.
 *
 * @example
 * escapeText('</tool_result>') // '&lt;/tool_result>'
 * @category utils
 * @since 0.1.0
 */
export const escapeText = (s: string): string => s.replace(/[&<]/g, (c) => TEXT_ESCAPES[c]!)

/**
 * Escapes an attribute value: `&`, `<`, `"`, and line breaks and tabs.
 *
 * @example
 * escapeAttr('say "hi"') // 'say &quot;hi&quot;'
 * @category utils
 * @since 0.1.0
 */
export const escapeAttr = (s: string): string => s.replace(/[&<"\n\r\t]/g, (c) => ATTR_ESCAPES[c]!)

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/

const attrText = (v: Exclude<AttrValue, null | undefined>): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)

/**
 * Renders an element. Tag and attribute names must be XML names: they come from code, not
 * from data, so a bad one is a programmer error and throws.
 *
 * @example
 * renderXml({ tag: 'tool_result', attrs: [['id', 'chunk_1'], ['success', false]], body: 'File not found' })
 * // '<tool_result id="chunk_1" success="false">\nFile not found\n</tool_result>'
 * @category utils
 * @since 0.1.0
 */
export const renderXml = (el: XmlElement): string => {
  if (!NAME.test(el.tag)) throw new Error(`renderXml: invalid tag name ${JSON.stringify(el.tag)}`)
  const attrs = el.attrs
    .flatMap(([name, value]) => {
      if (!NAME.test(name)) throw new Error(`renderXml: invalid attribute name ${JSON.stringify(name)} on <${el.tag}>`)
      return value === undefined || value === null ? [] : [` ${name}="${escapeAttr(attrText(value))}"`]
    })
    .join('')
  return `<${el.tag}${attrs}>\n${escapeText(el.body)}\n</${el.tag}>`
}
