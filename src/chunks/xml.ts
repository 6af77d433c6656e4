/**
 * XML elements as data, and their one-way rendering to text with escaping: the one XML
 * escaper of gssc (chunks, the `xml` layout, the workspace's skills summary).
 *
 * Text in an element is untrusted (tool output, web pages, other agents, retrieved passages),
 * so both the body and every attribute value are escaped: a tool result containing
 * `</tool_result>` or `"` cannot close its element or its attribute. The rule, which keeps
 * the output well-formed for a strict XML 1.0 parser:
 *
 * | character | in a body | in an attribute value |
 * | --- | --- | --- |
 * | `&`, `<` | `&amp;`, `&lt;` | `&amp;`, `&lt;` |
 * | `>` | kept, except in `]]>`, written `]]&gt;` | kept |
 * | `"` | kept | `&quot;` |
 * | line feed, tab | kept | `&#10;`, `&#9;` (an attribute stays on one line) |
 * | carriage return | `&#13;` (parsers turn a raw one into a line feed) | `&#13;` |
 * | DEL and C1 controls (U+007F–U+009F) | `&#x7F;` … (a reference: allowed, and visible) | the same |
 * | other C0 controls (U+0000–U+001F but tab, LF, CR) | their Control Picture, e.g. ESC → `␛` | the same |
 * | lone surrogates, U+FFFE, U+FFFF | `�` (U+FFFD) | the same |
 *
 * `>` stays in bodies so code such as `a => b` reads (and tokenizes) as written. An XML parser
 * gives back the original text exactly, except for the characters of the last two rows, which
 * XML 1.0 cannot carry in any form: they come back as their visible stand-ins.
 *
 * @module
 */
import { controlPicture } from '../internal/controlPicture.js'

/** An attribute value; `undefined` and `null` leave the attribute out. Objects render as JSON. */
export type AttrValue = string | number | boolean | null | undefined | object

/** `<tag a="…">\nbody\n</tag>` as data. */
export interface XmlElement {
  readonly tag: string
  readonly attrs: ReadonlyArray<readonly [string, AttrValue]>
  /** Raw (unescaped) text. */
  readonly body: string
}

// what cannot stand as itself: C0 controls but tab and line feed, CR, DEL and C1, U+FFFE/U+FFFF, lone surrogates
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000d\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const TEXT = new RegExp(`[&<]|\\]\\]>|${UNSAFE.source}`, 'g')
const ATTR = new RegExp(`[&<"\\n\\t]|${UNSAFE.source}`, 'g')

const escapeOne = (c: string): string => {
  switch (c) {
    case '&':
      return '&amp;'
    case '<':
      return '&lt;'
    case '"':
      return '&quot;'
    case ']]>':
      return ']]&gt;'
    case '\n':
      return '&#10;'
    case '\t':
      return '&#9;'
    case '\r':
      return '&#13;'
    default: {
      const code = c.charCodeAt(0)
      return code >= 0x7f && code <= 0x9f ? `&#x${code.toString(16).toUpperCase()};` : controlPicture(c)
    }
  }
}

/**
 * Escapes element text by the rule above: `&` → `&amp;`, `<` → `&lt;`, `]]>` → `]]&gt;`, CR →
 * `&#13;`, and characters XML cannot hold made visible.
 *
 * @example
 * escapeText('</tool_result>') // '&lt;/tool_result>'
 * escapeText('a ]]> b\u001b')   // 'a ]]&gt; b␛'
 * @category utils
 * @since 0.1.0
 */
export const escapeText = (s: string): string => s.replace(TEXT, escapeOne)

/**
 * Escapes an attribute value by the rule above: also `"`, line feeds and tabs.
 *
 * @example
 * escapeAttr('say "hi"') // 'say &quot;hi&quot;'
 * @category utils
 * @since 0.1.0
 */
export const escapeAttr = (s: string): string => s.replace(ATTR, escapeOne)

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/

const attrText = (v: Exclude<AttrValue, null | undefined>): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)

/**
 * The opening tag of an element, attributes escaped. Tag and attribute names must be XML
 * names: they come from code, not from data, so a bad one is a programmer error and throws.
 *
 * @example
 * openTag('evidence', [['source', 'rag "x"']]) // '<evidence source="rag &quot;x&quot;">'
 * @category utils
 * @since 0.1.0
 */
export const openTag = (tag: string, attrs: XmlElement['attrs']): string => {
  if (!NAME.test(tag)) throw new Error(`renderXml: invalid tag name ${JSON.stringify(tag)}`)
  const rendered = attrs
    .flatMap(([name, value]) => {
      if (!NAME.test(name)) throw new Error(`renderXml: invalid attribute name ${JSON.stringify(name)} on <${tag}>`)
      return value === undefined || value === null ? [] : [` ${name}="${escapeAttr(attrText(value))}"`]
    })
    .join('')
  return `<${tag}${rendered}>`
}

/**
 * Renders an element: the opening tag, the escaped body and the closing tag, each on its own
 * line.
 *
 * @example
 * renderXml({ tag: 'tool_result', attrs: [['id', 'chunk_1'], ['success', false]], body: 'File not found' })
 * // '<tool_result id="chunk_1" success="false">\nFile not found\n</tool_result>'
 * @category utils
 * @since 0.1.0
 */
export const renderXml = (el: XmlElement): string => `${openTag(el.tag, el.attrs)}\n${escapeText(el.body)}\n</${el.tag}>`
