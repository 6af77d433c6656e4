// A reader of the subset of XML renderXml writes: one element, attributes in double quotes,
// the predefined entities and numeric character references.
export const unescape = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'apos' ? "'" : String.fromCodePoint(Number(e.slice(1))),
  )
export const parse = (xml: string): { tag: string; attrs: Record<string, string>; body: string } => {
  const m = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)>\n([\s\S]*)\n<\/\1>$/.exec(xml)
  if (m === null) throw new Error(`not one element: ${xml}`)
  const attrs = Object.fromEntries([...m[2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)].map((a) => [a[1]!, unescape(a[2]!)]))
  if (m[3]!.includes('<')) throw new Error('raw < in body')
  return { tag: m[1]!, attrs, body: unescape(m[3]!) }
}
export const count = (s: string, sub: string): number => s.split(sub).length - 1

