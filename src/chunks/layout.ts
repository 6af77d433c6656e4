/**
 * The chunk context's layout (its structure stage): a `Document` holding the system prompt
 * on its own, then the rendered chunks as turns, one part per chunk, merged by role, with
 * the fitting policy stated as data on the items (pinned units, call groups) for the one
 * engine's `windowPolicy` to read.
 *
 * Each segment of a chunk is one layout item named `chunkId\0k`; {@link chunkOf} gives the
 * chunk back from the renderer's provenance, so nothing searches the rendered messages.
 *
 * @module
 */
import type { Document, Item } from '../structure/document.js'
import { labelsFor } from '../structure/labels.js'
import { section } from '../structure/sectioned.js'
import type { Meter } from '../tokenize/meter.js'
import { sharedCallGroups } from '../toolUnits.js'
import type { Unit } from './units.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What the chunk layout needs besides the rendered chunks. */
export interface ChunkLayoutOptions {
  /** The system prompt, when it has text. */
  readonly prompt?: string
  /** Budget CRITICAL chunks with the SYSTEM chunks (pinned). */
  readonly keepCritical: boolean
  readonly meter: Meter
}

/** The layout, and which chunks it pins. */
export interface ChunkLayout {
  readonly doc: Document
  /** Chunk ids budgeted with the pinned units (SYSTEM chunks, kept CRITICAL ones, their call groups). */
  readonly pinned: ReadonlySet<string>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The packet id of the system prompt in the chunk layout.
 *
 * @category utils
 * @since 0.2.0
 */
export const PROMPT_ID = 'system-prompt'

/**
 * The chunk a layout item (or a rendered piece's provenance) came from.
 *
 * @category utils
 * @since 0.2.0
 */
export const chunkOf = (packetId: string): string => {
  const at = packetId.indexOf('\u0000')
  return at < 0 ? packetId : packetId.slice(0, at)
}

/**
 * Lays rendered chunks out for the engine (see the module comment).
 *
 * @example
 * const { doc } = chunkLayout({ keepCritical: true, meter: meter(tokenizer) })(units)
 * fitDocument(doc, windowPolicy, ctx)
 * @category constructors
 * @since 0.2.0
 */
export const chunkLayout =
  (options: ChunkLayoutOptions) =>
  (units: ReadonlyArray<Unit>): ChunkLayout => {
    const { prompt, meter } = options
    const groups = unitGroups(units, (u) => u.system || (u.critical && options.keepCritical))
    const labels = labelsFor('en')
    const promptItems: ReadonlyArray<Item> = prompt === undefined ? [] : [{ packetId: PROMPT_ID, prefix: '', text: prompt, tokens: meter.text(prompt), pinned: true }]
    const chunkItems = units.flatMap((u, i) =>
      u.segments.map(
        (seg, k): Item => ({
          packetId: `${u.chunkId}\u0000${k}`,
          prefix: '',
          text: '',
          tokens: seg.costs.reduce((a, b) => a + b, 0),
          message: { role: seg.role, parts: seg.parts },
          group: groups[i]!.group,
          ...(groups[i]!.pinned ? { pinned: true } : {}),
        }),
      ),
    )
    return {
      doc: {
        joiner: '',
        blocks: [
          section({ name: 'prompt', rank: 0, head: '', channel: 'system', items: promptItems }, labels),
          section({ name: 'chunks', rank: 1, head: '', channel: 'turns', dropFrom: 'start', keep: 'tail', mergeTurns: 'parts', items: chunkItems }, labels),
        ],
      },
      pinned: new Set(units.flatMap((u, i) => (groups[i]!.pinned ? [u.chunkId] : []))),
    }
  }

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The engine's unit of each chunk. A pinned group (any member a SYSTEM or kept CRITICAL
 * chunk) is its call group, wherever its members stand. The other chunks form the window: a
 * window cannot end inside a call group, so a group there spans everything between its first
 * and last member.
 */
const unitGroups = (units: ReadonlyArray<Unit>, pinned: (u: Unit) => boolean): ReadonlyArray<{ readonly group: string; readonly pinned: boolean }> => {
  const root = sharedCallGroups(units.map((u) => u.callIds))
  const pinnedRoots = new Set(units.flatMap((u, i) => (pinned(u) ? [root[i]!] : [])))
  const lastOf = new Map<number, number>()
  units.forEach((_, i) => pinnedRoots.has(root[i]!) || lastOf.set(root[i]!, i))
  // a running span over the window's units: local to one call
  let span = -1
  let reach = -1
  return units.map((_, i) => {
    if (pinnedRoots.has(root[i]!)) return { group: `pinned:${root[i]}`, pinned: true }
    if (i > reach) span = i
    reach = Math.max(reach, lastOf.get(root[i]!)!)
    return { group: `window:${span}`, pinned: false }
  })
}
