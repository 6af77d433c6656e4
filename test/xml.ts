/**
 * A real, strict XML 1.0 parser (saxes) for tests: well-formedness as any consumer of the
 * output would check it, and the text and attributes it gives back.
 */
import { SaxesParser } from 'saxes'

/** An element as a parser reads it. */
export interface XmlNode {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  /** Its text, all text children joined. */
  readonly text: string
  readonly children: ReadonlyArray<XmlNode>
}

/** Parses a document (throws on anything not well-formed); `wrap` puts several elements under one root. */
export const parseXml = (xml: string, wrap = false): XmlNode => {
  const parser = new SaxesParser()
  const stack: Array<{ name: string; attributes: Record<string, string>; text: string; children: XmlNode[] }> = [
    { name: '#document', attributes: {}, text: '', children: [] },
  ]
  parser.on('error', (e) => {
    throw e
  })
  parser.on('opentag', (tag) => stack.push({ name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '', children: [] }))
  parser.on('text', (t) => (stack[stack.length - 1]!.text += t))
  parser.on('closetag', () => {
    const node = stack.pop()!
    stack[stack.length - 1]!.children.push(node)
  })
  parser.write(wrap ? `<root>${xml}</root>` : xml).close()
  const root = stack[0]!.children[0]!
  return root
}

/** Every element below a node, depth first. */
export const elements = (n: XmlNode): ReadonlyArray<XmlNode> => n.children.flatMap((c) => [c, ...elements(c)])

/** What a parser gives back for a text gssc escaped: the original, but the characters XML cannot hold made visible. */
export const xmlVisible = (s: string): string => {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s.slice(i, i + 2)
      i++
    } else if (c < 0x20 && c !== 9 && c !== 10 && c !== 13) out += String.fromCharCode(0x2400 + c)
    else if ((c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) out += '\ufffd'
    else out += s[i]
  }
  return out
}
