/**
 * Local images for a user turn. The MIME type comes from the file's first bytes, never its
 * name; the file must lie inside the workspace (or a folder the caller allows), be a PNG,
 * JPEG, GIF or WebP image and be within the size limit. Anything else is an error naming
 * the file: an image the user attached is never dropped silently. URLs are refused, not
 * fetched.
 *
 * @module
 */
import { readFile, realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'
import type { OpenAIImagePart } from '../render/wire.js'
import { describeFsError, fsCode, isInside } from './paths.js'

/** The image types vision models accept. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

/** Where images may come from and how big they may be. */
export interface MediaOptions {
  /** Largest image accepted, in bytes. Default 20 MiB (OpenAI's per-image limit). */
  readonly maxImageBytes?: number
  /** Folders besides the workspace that images may be read from (e.g. a download folder). */
  readonly mediaRoots?: ReadonlyArray<string>
}

/** Default {@link MediaOptions.maxImageBytes}. */
export const DEFAULT_MAX_IMAGE_BYTES = 20 * 1024 * 1024

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, at = 0): boolean =>
  signature.every((b, i) => bytes[at + i] === b)

const ascii = (s: string): ReadonlyArray<number> => [...s].map((c) => c.charCodeAt(0))

/**
 * The image type of `bytes` from its magic number, or `undefined`.
 *
 * @example
 * sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) // 'image/png'
 * @category utils
 */
export const sniffImage = (bytes: Uint8Array): ImageMime | undefined => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return undefined
}

/**
 * Reads a local image into an `image_url` part with a base64 data URL. `path` is taken
 * relative to `root` (the workspace) unless absolute.
 *
 * @example
 * await imagePart('/ws', 'images/chart.png')
 * // Right({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo…' } })
 * @category constructors
 */
export const imagePart = async (root: string, path: string, options: MediaOptions = {}): Promise<E.Either<InputError, OpenAIImagePart>> => {
  const input = `media ${JSON.stringify(path)}`
  const limit = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) && !/^[a-z]:[\\/]/i.test(path))
    return E.left(inputError(input, 'URLs are not fetched; save the image into the workspace and pass its path'))
  const abs = resolve(root, path)
  try {
    const roots = [root, ...(await Promise.all((options.mediaRoots ?? []).map((r) => realpath(resolve(r)).catch(() => resolve(r)))))]
    const real = await realpath(abs)
    if (!roots.some((r) => isInside(r, real)))
      return E.left(inputError(input, `resolves to ${real}, outside the workspace ${root}; add its folder to mediaRoots to allow it`))
    const info = await stat(real)
    if (!info.isFile()) return E.left(inputError(input, info.isDirectory() ? 'is a directory, not an image file' : 'is not a regular file'))
    if (info.size > limit)
      return E.left(inputError(input, `is ${info.size.toLocaleString('en-US')} bytes; the image limit is ${limit.toLocaleString('en-US')} bytes (maxImageBytes)`))
    const bytes = await readFile(real)
    const mime = sniffImage(bytes)
    if (mime === undefined) {
      const head = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ')
      return E.left(inputError(input, `is not a PNG, JPEG, GIF or WebP image (its first bytes are ${head || 'none: the file is empty'})`))
    }
    return E.right({ type: 'image_url', image_url: { url: `data:${mime};base64,${bytes.toString('base64')}` } })
  } catch (e) {
    return E.left(inputError(input, fsCode(e) === 'ENOENT' ? `file not found (looked at ${abs})` : describeFsError(e)))
  }
}
