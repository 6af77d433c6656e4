/**
 * Image dimensions read from the first bytes of base64 data, without decoding the image:
 * PNG, GIF and WebP keep them in a fixed header; JPEG in its first SOF segment, found by
 * hopping from segment to segment. Only the bytes read are decoded (base64 is random-access:
 * bytes `3k…3k+2` are characters `4k…4k+3`), so a 5 MB photo costs a few dozen small decodes.
 *
 * @module
 */

/** Width and height in pixels. */
export interface Size {
  readonly width: number
  readonly height: number
}

interface Bytes {
  readonly length: number
  /** `n` bytes from `start`, fewer at the end of the data. */
  readonly read: (start: number, n: number) => Uint8Array
}

const base64Bytes = (data: string): Bytes => {
  // line-wrapped base64 breaks the offset arithmetic; such data is rare, so strip it only then
  const clean = /\s/.test(data) ? data.replace(/\s+/g, '') : data
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0
  return {
    length: Math.floor((clean.length * 3) / 4) - padding,
    read: (start, n) => {
      const from = Math.floor(start / 3) * 4
      const to = Math.ceil((start + n) / 3) * 4
      const skip = start % 3
      return decodeBase64(clean.slice(from, to)).subarray(skip, skip + n)
    },
  }
}

/** Base64 to bytes with the web platform's `atob` (no Node `Buffer`: renderers run anywhere); invalid data reads as no bytes. */
const decodeBase64 = (quads: string): Uint8Array => {
  try {
    const binary = atob(quads.replace(/-/g, '+').replace(/_/g, '/'))
    const out = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
    return out
  } catch {
    return new Uint8Array(0)
  }
}

const be16 = (b: Uint8Array, i: number): number => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)
const le16 = (b: Uint8Array, i: number): number => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8)
const le24 = (b: Uint8Array, i: number): number => le16(b, i) | ((b[i + 2] ?? 0) << 16)
const ascii = (b: Uint8Array, i: number, n: number): string => String.fromCharCode(...b.subarray(i, i + n))

const png = (h: Uint8Array): Size | undefined =>
  h[0] === 0x89 && ascii(h, 1, 3) === 'PNG' && ascii(h, 12, 4) === 'IHDR'
    ? { width: (be16(h, 16) << 16) | be16(h, 18), height: (be16(h, 20) << 16) | be16(h, 22) }
    : undefined

const gif = (h: Uint8Array): Size | undefined =>
  ascii(h, 0, 4) === 'GIF8' ? { width: le16(h, 6), height: le16(h, 8) } : undefined

const webp = (h: Uint8Array): Size | undefined => {
  if (ascii(h, 0, 4) !== 'RIFF' || ascii(h, 8, 4) !== 'WEBP') return undefined
  const chunk = ascii(h, 12, 4)
  if (chunk === 'VP8 ') return { width: le16(h, 26) & 0x3fff, height: le16(h, 28) & 0x3fff }
  if (chunk === 'VP8X') return { width: le24(h, 24) + 1, height: le24(h, 27) + 1 }
  if (chunk === 'VP8L') {
    const [b1, b2, b3, b4] = [h[21] ?? 0, h[22] ?? 0, h[23] ?? 0, h[24] ?? 0]
    return { width: 1 + (((b2 & 0x3f) << 8) | b1), height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)) }
  }
  return undefined
}

// start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) do not
const SOF: ReadonlySet<number> = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])

const jpeg = (bytes: Bytes, h: Uint8Array): Size | undefined => {
  if (h[0] !== 0xff || h[1] !== 0xd8) return undefined
  let at = 2
  for (let hops = 0; hops < 512 && at + 9 <= bytes.length; hops++) {
    const seg = bytes.read(at, 9)
    if (seg[0] !== 0xff) return undefined
    const marker = seg[1] ?? 0
    if (marker === 0xff) {
      at += 1 // fill byte
      continue
    }
    if (SOF.has(marker)) return { width: be16(seg, 7), height: be16(seg, 5) }
    if (marker === 0xd9 || marker === 0xda) return undefined // end of image, or scan data before any frame header
    at += marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8) ? 2 : 2 + be16(seg, 2)
  }
  return undefined
}

/**
 * The size of a PNG, GIF, WebP or JPEG image given as base64 (no `data:` prefix), or
 * `undefined` when the format is not recognised or the header is cut short.
 *
 * @example
 * imageSize(pngBase64) // { width: 640, height: 480 }
 * @category utils
 * @since 0.1.0
 */
export const imageSize = (base64: string): Size | undefined => {
  const bytes = base64Bytes(base64)
  const head = bytes.read(0, 32)
  const size = png(head) ?? gif(head) ?? webp(head) ?? jpeg(bytes, head)
  return size !== undefined && size.width > 0 && size.height > 0 ? size : undefined
}
