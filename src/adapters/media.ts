/**
 * Media as the SDKs write them: `data:` URLs (OpenAI), raw base64 (Anthropic), bytes (the AI
 * SDK). A data URL is read into base64 and a media type only when writing them back gives the
 * same URL (`data:<type>;base64,<data>`, nothing else), so a round trip is exact; any other URL
 * stays a URL. Bytes use the web platform's `atob`/`btoa` (no Node `Buffer`: the core runs
 * anywhere).
 *
 * @module
 */
import type { ImageSource } from '../message.js'

/** Base64 data and its media type. */
export interface Inline {
  readonly mimeType: string
  readonly data: string
}

const PREFIX = 'data:'
const MARK = ';base64,'

/**
 * A `data:<type>;base64,<data>` URL split, or undefined for any other URL.
 *
 * @example
 * parseDataUrl('data:image/png;base64,iVBO') // { mimeType: 'image/png', data: 'iVBO' }
 * @category utils
 * @since 0.2.0
 */
export const parseDataUrl = (url: string): Inline | undefined => {
  if (!url.startsWith(PREFIX)) return undefined
  const mark = url.indexOf(MARK)
  if (mark < 0) return undefined
  const mimeType = url.slice(PREFIX.length, mark)
  return mimeType.length === 0 || /[;,]/.test(mimeType) ? undefined : { mimeType, data: url.slice(mark + MARK.length) }
}

/** `data:<type>;base64,<data>`. @category utils */
export const dataUrl = (mimeType: string, data: string): string => `${PREFIX}${mimeType}${MARK}${data}`

/** An image source from a URL: inline when it is a base64 data URL. @category utils */
export const imageSourceOfUrl = (url: string): ImageSource => {
  const inline = parseDataUrl(url)
  return inline === undefined ? { _tag: 'Url', url } : { _tag: 'Base64', ...inline }
}

/** The URL of an image source (a data URL for inline data). @category utils */
export const urlOfImageSource = (s: ImageSource): string => (s._tag === 'Url' ? s.url : dataUrl(s.mimeType, s.data))

/** Bytes as base64. @category utils */
export const bytesToBase64 = (bytes: Uint8Array): string => {
  let binary = ''
  // fromCharCode takes its arguments on the stack: feed it in slices
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** Base64 as bytes; undefined when it is not base64. @category utils */
export const base64ToBytes = (data: string): Uint8Array<ArrayBuffer> | undefined => {
  try {
    const binary = atob(data)
    const out = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
    return out
  } catch {
    return undefined
  }
}

/**
 * The media type of an image from the first characters of its base64 (PNG, JPEG, GIF, WebP),
 * for a source that names none (the AI SDK's `mediaType` is optional).
 *
 * @category utils
 */
export const sniffImageType = (data: string): string | undefined =>
  data.startsWith('iVBORw0KGgo')
    ? 'image/png'
    : data.startsWith('/9j/')
      ? 'image/jpeg'
      : data.startsWith('R0lGOD')
        ? 'image/gif'
        : data.startsWith('UklGR') && data.slice(8, 12) === 'V0VC'
          ? 'image/webp'
          : undefined

/** How bytes were given: base64 text (the default), a URL string, a `URL`, a `Uint8Array`, an `ArrayBuffer`. */
export type DataForm = 'url' | 'URL' | 'bytes' | 'arraybuffer' | undefined

/** Where data given as text, bytes or a URL is, and how it was given; undefined when it is none of these. */
export const readData = (v: unknown, mimeType: string): { readonly source: ImageSource; readonly form: DataForm } | undefined => {
  if (typeof v === 'string') return /^[a-z][a-z\d+.-]*:/i.test(v) ? { source: imageSourceOfUrl(v), form: 'url' } : { source: { _tag: 'Base64', mimeType, data: v }, form: undefined }
  if (v instanceof URL) return { source: { _tag: 'Url', url: v.href }, form: 'URL' }
  if (v instanceof Uint8Array) return { source: { _tag: 'Base64', mimeType, data: bytesToBase64(v) }, form: 'bytes' }
  if (v instanceof ArrayBuffer) return { source: { _tag: 'Base64', mimeType, data: bytesToBase64(new Uint8Array(v)) }, form: 'arraybuffer' }
  return undefined
}

/** Data written back the way {@link readData} found it. */
export const writeData = (source: ImageSource, form: unknown): string | URL | Uint8Array | ArrayBuffer => {
  const url = urlOfImageSource(source)
  if (form === 'URL') return new URL(url)
  if (source._tag === 'Url' || form === 'url') return url
  if (form !== 'bytes' && form !== 'arraybuffer') return source.data
  const bytes = base64ToBytes(source.data) ?? new Uint8Array()
  return form === 'bytes' ? bytes : bytes.buffer
}
