/**
 * The workspace prompt's fitting policy, stated as data for the one fitting engine
 * (`compress/engine.ts`); nothing here cuts or counts a prompt by itself.
 *
 * - Every file is an item capped at its per-file cap (`Item.cap`), its heading as uncut
 *   decoration; a cut says what it kept of how much (`Item.marker`:
 *   `… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]`).
 * - A skill's summary entry is all or nothing (a group of one).
 * - `fill` order, `miss: 'cut'`: items are kept by priority (P0 first), then by their place
 *   in the prompt (history: the newest first); the first that does not fit is cut to the
 *   room left, and nothing after it is kept. So lower priorities always go first, and a
 *   big low-priority file never pushes out AGENTS.md.
 * - The `# Recent History` block has a token cap (`Section.cap`): its first entry over the
 *   cap closes it, the other sections go on.
 *
 * An item's `tokens` is what its text adds after its heading, so that decoration and tokens
 * are the exact count of the part as shown (the report's and the packets' number). A long
 * file is tokenized only about as far as it can be kept (`tokensUpTo`); its total is then an
 * estimate, shown with `~`, scaled to the file's size on disk when only its head was read.
 *
 * @module
 */
import { tokensUpTo } from '../compress/cutText.js'
import type { FitPolicy } from '../compress/policy.js'
import type { Document, Item as LayoutItem, Section as LayoutSection } from '../structure/document.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import type { Meter } from '../tokenize/meter.js'
import { fileCap, type Settings } from './options.js'
import type { Item, Section } from './sections.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * How the prompt gives way: by preference, cutting the first part that does not fit, then
 * stopping; a part is dropped rather than cut to fewer than `minCutTokens` tokens.
 *
 * @category constructors
 */
export const promptPolicy = (s: Settings): FitPolicy => ({ order: 'fill', halve: false, cut: true, minKept: s.minCutTokens, miss: 'cut' })

/**
 * The prompt's sections as the engine's layout: one section per prompt section (ranked in
 * prompt order), one item per part, its packet id the part's id.
 *
 * @example
 * fitDocument(promptDocument(sections, settings, meter), promptPolicy(settings), ctx)
 * @category constructors
 */
export const promptDocument = (sections: ReadonlyArray<Section>, s: Settings, m: Meter): Document => ({
  joiner: PART_SEPARATOR,
  blocks: sections.map(
    (sec, rank): LayoutSection => ({
      _tag: 'Section',
      name: sec.id,
      rank,
      head: sec.head,
      items: sec.items.map((i) => promptItem(i, s, m)),
      separator: sec.sep,
      dropFrom: sec.dropFrom ?? 'end',
      keep: 'head',
      channel: 'system',
      omitWhenEmpty: true,
      marker: '',
      tail: sec.tail,
      joiner: sec.joiner,
      ...(sec.cap === undefined ? {} : { cap: sec.cap }),
    }),
  ),
})

/**
 * The per-file cap of a part: none for parts that are no file's (identity, session) and
 * for the skills summary, which is all or nothing.
 *
 * @category utils
 */
export const capOf = (i: Item, s: Settings): number | undefined => (i.file === undefined || !i.cuttable ? undefined : fileCap(s, i.file))

/** One part as an item: counted (about as far as it can be kept), capped, marked. */
const promptItem = (i: Item, s: Settings, m: Meter): LayoutItem => {
  const cap = capOf(i, s)
  const counted = tokensUpTo(i.head + i.body, Math.min(cap ?? Infinity, s.maxTokens), m.tokenizer)
  // only a head of a file over the read limit was loaded: the total is the whole file's
  const onDisk = counted.estimated && i.bytes > 0 ? Math.max(1, i.bytes / Buffer.byteLength(i.body, 'utf8')) : 1
  return {
    packetId: i.id,
    prefix: i.head,
    text: i.body,
    tokens: Math.round(counted.tokens * onDisk) - m.text(i.head),
    priority: i.priority,
    ...(cap === undefined ? {} : { cap }),
    // an all-or-nothing part is a group of one: never cut
    ...(i.cuttable ? { marker: { label: i.file ?? i.name, estimated: counted.estimated } } : { group: i.id }),
  }
}
