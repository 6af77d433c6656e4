/**
 * What an image costs in the context window, by each provider's published rule.
 *
 * - OpenAI (GPT-4o / GPT-4.1 vision guide): `low` detail is 85 tokens. Otherwise the image is
 *   scaled to fit 2048×2048, then so that its short side is at most 768, and costs
 *   85 + 170 per 512-px tile. `auto` is budgeted as `high` (the upper bound). An image whose
 *   size cannot be read (a URL, an unknown format) is budgeted at the rule's maximum, 1445
 *   (a 768×2048 image: 8 tiles). Newer patch-based models (gpt-4.1-mini, o4-mini, gpt-5) count
 *   differently; this rule is then an estimate.
 * - Anthropic (vision guide): width × height / 750 after scaling the long edge to at most 1568,
 *   and never more than about 1600 (larger images are scaled down to fit). Unknown size: 1600.
 *
 * @module
 */
import type { ImageSource } from '../message.js'
import { imageSize, type Size } from './imageSize.js'
import type { ImageDetail } from './options.js'

/** OpenAI: the cost of a `low` detail image, and the base of every other. */
export const OPENAI_IMAGE_BASE = 85
/** OpenAI: the cost of one 512-px tile. */
export const OPENAI_IMAGE_TILE = 170
/** OpenAI: the largest cost the tile rule can give (768×2048), used when the size is unknown. */
export const OPENAI_IMAGE_MAX = OPENAI_IMAGE_BASE + 8 * OPENAI_IMAGE_TILE
/** Anthropic: the largest cost of one image, used when the size is unknown. */
export const ANTHROPIC_IMAGE_MAX = 1600

/** The size of an image source, when its bytes are inline and the format is known. @category utils */
export const sourceSize = (source: ImageSource): Size | undefined =>
  source._tag === 'Base64' ? imageSize(source.data) : undefined

/**
 * OpenAI image tokens for a size (undefined: unknown) and detail.
 *
 * @example
 * openAIImageTokens({ width: 1024, height: 1024 }, 'high') // 765
 * @category utils
 * @since 0.1.0
 */
export const openAIImageTokens = (size: Size | undefined, detail: ImageDetail | undefined): number => {
  if (detail === 'low') return OPENAI_IMAGE_BASE
  if (size === undefined) return OPENAI_IMAGE_MAX
  let { width: w, height: h } = size
  const fit = 2048 / Math.max(w, h)
  if (fit < 1) [w, h] = [Math.floor(w * fit), Math.floor(h * fit)]
  const short = 768 / Math.min(w, h)
  if (short < 1) [w, h] = [Math.floor(w * short), Math.floor(h * short)]
  return OPENAI_IMAGE_BASE + OPENAI_IMAGE_TILE * Math.ceil(w / 512) * Math.ceil(h / 512)
}

/**
 * Anthropic image tokens for a size (undefined: unknown).
 *
 * @example
 * anthropicImageTokens({ width: 1000, height: 1000 }) // 1334
 * @category utils
 * @since 0.1.0
 */
export const anthropicImageTokens = (size: Size | undefined): number => {
  if (size === undefined) return ANTHROPIC_IMAGE_MAX
  const scale = Math.min(1, 1568 / Math.max(size.width, size.height))
  const w = Math.floor(size.width * scale)
  const h = Math.floor(size.height * scale)
  return Math.min(ANTHROPIC_IMAGE_MAX, Math.ceil((w * h) / 750))
}

/**
 * Splits a `data:<mime>;base64,<data>` URL; `undefined` for any other URL.
 *
 * @category utils
 */
export const parseDataUrl = (url: string): { readonly mimeType: string; readonly data: string } | undefined => {
  const m = /^data:([^;,]+);base64,/.exec(url)
  return m === null ? undefined : { mimeType: m[1]!, data: url.slice(m[0].length) }
}
