/**
 * The format adapters and format detection.
 *
 * @module
 */
import type { SessionFormat } from '../model.js'
import type { FormatAdapter } from './adapter.js'
import { claudeCodeFormat } from './claude.js'
import type { Json } from './fields.js'
import { piFormat } from './pi.js'
import { seedFormat } from './seed.js'

/** Adapters by format. */
export const ADAPTERS: Readonly<Record<SessionFormat, FormatAdapter>> = {
  pi: piFormat,
  'claude-code': claudeCodeFormat,
  seed: seedFormat,
}

/**
 * The format a line belongs to, if it tells. pi is tried first (its header is unmistakable),
 * then Claude Code (uuid lines and its own metadata types), then the seed format.
 *
 * @category utils
 */
export const detectFormat = (o: Json): SessionFormat | undefined =>
  piFormat.detect(o) ? 'pi' : claudeCodeFormat.detect(o) ? 'claude-code' : seedFormat.detect(o) ? 'seed' : undefined
