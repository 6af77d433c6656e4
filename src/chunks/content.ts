/**
 * A chunk's content as text for the inside of its element, and its images as chat parts.
 *
 * Text content is used as is. Structured content (no `text`) shows the fields that did not
 * become attributes, as compact JSON; a call's arguments alone (`arguments`, `args`, `input`,
 * `params`, `parameters`) show as just their JSON, as in the seed's `<tool_call …>{"path": …}`.
 * Images show as `[image]` (or `[image: alt text]`) inside the element and travel as image
 * parts after it; a chunk reference shows as `[Reference to chunk: id]`.
 *
 * @module
 */
import { match } from 'ts-pattern'
import type { ImagePart } from '../message.js'
import type { ChunkContent, ChunkImage } from './model.js'

const PAYLOAD_KEYS: ReadonlySet<string> = new Set(['arguments', 'args', 'input', 'params', 'parameters'])

const json = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))

const imageMarker = (img: ChunkImage): string => (img.altText === undefined ? '[image]' : `[image: ${img.altText}]`)

/**
 * The text inside a chunk's element. `consumed` lists the fields already shown as attributes.
 *
 * @example
 * contentText({ type: 'TEXT', body: { _tag: 'Structured' }, fields: { action: 'tool_call', arguments: { path: 'a.ts' } } }, ['action'])
 * // '{"path":"a.ts"}'
 * @category utils
 * @since 0.1.0
 */
export const contentText = (content: ChunkContent, consumed: ReadonlyArray<string>): string =>
  match(content.body)
    .with({ _tag: 'Text' }, (b) => b.text)
    .with({ _tag: 'Image' }, imageMarker)
    .with({ _tag: 'Mixed' }, (b) => b.parts.map((p) => (p._tag === 'Text' ? p.text : imageMarker(p))).join('\n'))
    .with({ _tag: 'ChunkRef' }, (b) => `[Reference to chunk: ${b.chunkId}]`)
    .with({ _tag: 'Structured' }, () => {
      const rest = Object.entries(content.fields).filter(([k, v]) => !consumed.includes(k) && v !== undefined)
      const only = rest.length === 1 ? rest[0]! : undefined
      if (only !== undefined && PAYLOAD_KEYS.has(only[0])) return json(only[1])
      return rest.length === 0 ? '' : JSON.stringify(Object.fromEntries(rest))
    })
    .exhaustive()

const toImagePart = (img: ChunkImage): ImagePart => {
  if (/^https?:\/\//.test(img.data)) return { _tag: 'Image', source: { _tag: 'Url', url: img.data } }
  const dataUrl = /^data:([^;,]+);base64,/.exec(img.data)
  return dataUrl === null
    ? { _tag: 'Image', source: { _tag: 'Base64', mimeType: img.mimeType, data: img.data } }
    : { _tag: 'Image', source: { _tag: 'Base64', mimeType: dataUrl[1]!, data: img.data.slice(dataUrl[0].length) } }
}

/**
 * The images of a chunk's content, as chat image parts (base64, a `data:` URL or an http(s) URL).
 *
 * @category utils
 * @since 0.1.0
 */
export const contentImages = (content: ChunkContent): ReadonlyArray<ImagePart> =>
  content.body._tag === 'Image'
    ? [toImagePart(content.body)]
    : content.body._tag === 'Mixed'
      ? content.body.parts.flatMap((p) => (p._tag === 'Image' ? [toImagePart(p)] : []))
      : []
