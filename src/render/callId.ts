/**
 * Tool-call ids the providers accept. Anthropic requires `^[a-zA-Z0-9_-]+$` and at most 64
 * characters; for OpenAI, pi keeps ids to the same characters and at most 40 (OpenAI-compatible
 * servers reject longer ones), and so do we. Ids from other providers (OpenAI Responses ids
 * contain `|`) are rewritten deterministically, in the call and in its result alike.
 *
 * @module
 */
import { contentId } from '../packet.js'
import type { Format } from './options.js'

/** Longest accepted id per format. */
export const MAX_CALL_ID_LENGTH: Readonly<Record<Format, number>> = { openai: 40, anthropic: 64 }

const ID = /^[a-zA-Z0-9_-]+$/

/**
 * Whether a tool-call id is acceptable to a format.
 *
 * @category utils
 * @since 0.1.0
 */
export const isValidCallId = (id: string, format: Format): boolean =>
  id.length <= MAX_CALL_ID_LENGTH[format] && ID.test(id)

/**
 * A valid id derived from `id` (its sanitised prefix and a hash of the whole), different from
 * every id for which `taken` is true.
 *
 * @example
 * rewriteCallId('call_1|fc_2', 'openai', () => false) // 'call_1_fc_2_<hash>'
 * @category utils
 * @since 0.1.0
 */
export const rewriteCallId = (id: string, format: Format, taken: (candidate: string) => boolean): string => {
  const max = MAX_CALL_ID_LENGTH[format]
  const hash = contentId(id)
  const prefix = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, max - hash.length - 1) || 'call'
  const base = `${prefix}_${hash}`
  let candidate = base
  for (let n = 2; taken(candidate); n++) candidate = `${base.slice(0, max - String(n).length - 1)}_${n}`
  return candidate
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/

/**
 * OpenAI's `name` must match `^[a-zA-Z0-9_-]{1,64}$`; other characters become `_`.
 *
 * @category utils
 * @since 0.1.0
 */
export const sanitizeName = (name: string): string =>
  NAME.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || '_'

/** Whether an OpenAI `name` is acceptable. @category utils */
export const isValidName = (name: string): boolean => NAME.test(name)
