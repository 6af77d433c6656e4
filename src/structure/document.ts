/**
 * The structured context: sections of items, still data. Structurers build it, compressors
 * cut it, renderers turn it into text or chat messages. Nothing downstream parses rendered
 * text: a cut is made on an item, and the item keeps its packet id.
 *
 * @module
 */
import { absurd } from 'fp-ts/lib/function.js'
import type { ChatMessage } from '../message.js'
import type { ExclusionReason } from '../phase.js'
import type { Meter } from '../tokenize/meter.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** How much of an item's text survived a cut, in tokens; `original` is the uncut text. */
export interface Cut {
  readonly keptTokens: number
  readonly originalTokens: number
  readonly original: string
}

/**
 * One laid-out piece of content. `prefix` and `suffix` are decoration (a source tag, a speaker
 * label, an element's opening and closing tags) that cutting leaves alone; `text` is the
 * content; `tokens` counts `text` only.
 */
export interface Item {
  /** The packet the item shows; absent for static text such as the output format. */
  readonly packetId?: string
  readonly prefix: string
  readonly text: string
  readonly tokens: number
  /** Decoration after the text (a closing tag); default none. */
  readonly suffix?: string
  /** For conversation turns: the structured message, used by the chat renderers. */
  readonly message?: ChatMessage
  /** Items of one group (a tool call and its results) are dropped together. */
  readonly group?: string
  readonly cut?: Cut
  /** Ids of the packets this item summarizes (a compressor's summary turn). */
  readonly covers?: ReadonlyArray<string>
  /** Gives way only after every unpinned item of its section (a system turn, a SYSTEM chunk). */
  readonly pinned?: boolean
  /**
   * Preference under a `fill` policy: lower values are kept first (default 0). Items of equal
   * preference are kept from the section's keep end (the newest turns first).
   */
  readonly priority?: number
  /**
   * At most this many tokens of the item as shown (decoration, text and cut marker together)
   * stay: a per-file cap, a huge tool result. An item its cap cannot hold with `minKept`
   * tokens of text goes whole (see `applyCaps` in `compress/engine.ts`).
   */
  readonly cap?: number
  /** A cut of this item states what it kept, instead of the section's fixed marker. */
  readonly marker?: CountedMarker
}

/**
 * A cut marker that states what was kept of how much, counting the item's decoration too:
 * `… [truncated: memory/MEMORY.md, kept 1,987 of ~524,000 tokens]` (the workspace prompt's).
 */
export interface CountedMarker {
  /** What the marker calls the item: its file. */
  readonly label: string
  /** The item's `tokens` is an estimate (a long text, tokenized only as far as it can be kept): shown as `~`. */
  readonly estimated: boolean
}

/** Where a section goes when the output is chat messages rather than one text. */
export type Channel = 'system' | 'turns' | 'user'

/** A titled group of items. */
export interface Section {
  readonly _tag: 'Section'
  /** `instructions`, `task`, `state`, `evidence`, `context`, `custom`, `output`, or a user's own. */
  readonly name: string
  /** Truncation order: the section with the highest rank is cut first, rank 0 last. */
  readonly rank: number
  /** Text before the items: heading and intro line, with their line breaks. */
  readonly head: string
  readonly items: ReadonlyArray<Item>
  /** Text between items. */
  readonly separator: string
  /** Which items go first when the section must shrink: the oldest history first (`start`), the lowest-ranked evidence first (`end`). */
  readonly dropFrom: 'start' | 'end'
  /** Which part of a cut item's text stays. */
  readonly keep: 'head' | 'tail'
  readonly channel: Channel
  /** Leave the section (and its head) out when it has no items. */
  readonly omitWhenEmpty: boolean
  /** Shown where text was cut, e.g. `... (content truncated)`. */
  readonly marker: string
  /**
   * For the `turns` channel: merge consecutive items of the same role into one chat turn
   * (the chunk layout's grouping). Turns with tool calls or results are never merged. `true`
   * joins adjacent texts with a line break; `parts` keeps each item's parts as they are (one
   * text part per chunk, each counted on its own).
   */
  readonly mergeTurns?: boolean | 'parts'
  /**
   * At most this many unpinned items stay (whole units, from the `dropFrom` end first), and
   * why the others go: `keepRecentCount`, `maxMessages`.
   */
  readonly limit?: { readonly items: number; readonly reason: ExclusionReason }
  /**
   * `fill` order: at most this many tokens for the section's items and separators (not its
   * head); at its first miss the section closes (see `FitOrder`). The workspace's history block.
   */
  readonly cap?: number
  /** Text after the items (a closing tag); default none. */
  readonly tail?: string
  /** Text before the section when a block rendered before it; default the document's `joiner`. */
  readonly joiner?: string
  /**
   * Its content changes from one request to the next (the query, retrieved evidence, the
   * current state): the cache-stable prefix of the output ends before the first volatile
   * section (see `src/report/prefix.ts`). A `user`-channel section is always volatile.
   */
  readonly volatile?: boolean
}

/** Fixed text between sections (template layouts). */
export interface Literal {
  readonly _tag: 'Literal'
  readonly text: string
}

/** A whole layout: blocks in output order, joined by `joiner` where both sides render. */
export interface Document {
  readonly blocks: ReadonlyArray<Section | Literal>
  readonly joiner: string
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** The sections of a document, in layout order. @category utils */
export const sectionsOf = (doc: Document): ReadonlyArray<Section> =>
  doc.blocks.filter((b): b is Section => b._tag === 'Section')

/**
 * A document with `f` applied to every section (given its index among the blocks), the
 * literals left as they are: the one branch over a block's kinds for what the fitting engine
 * does to a layout (adding a kind of block fails to compile here, through `absurd`).
 *
 * @category utils
 */
export const mapSections = (doc: Document, f: (s: Section, block: number) => Section | Literal): Document => ({
  ...doc,
  blocks: doc.blocks.map((b, block) => {
    // a switch ending in absurd, not match: the fill assembles the document once per unit it
    // tries; measured on Node 20, match costs ~1 µs a block, the switch ~0.01–0.1 µs
    switch (b._tag) {
      case 'Section':
        return f(b, block)
      case 'Literal':
        return b
      default:
        return absurd(b)
    }
  }),
})

/**
 * A bare history section of whole chat turns (no head, separator or marker), the oldest
 * dropped first, optionally limited to `limit.items` turns. @category constructors
 */
export const turnsSection = (items: ReadonlyArray<Item>, limit?: Section['limit']): Section => ({
  _tag: 'Section',
  name: 'history',
  rank: 0,
  head: '',
  items,
  separator: '',
  dropFrom: 'start',
  keep: 'tail',
  channel: 'turns',
  omitWhenEmpty: true,
  marker: '',
  ...(limit === undefined ? {} : { limit }),
})

/** Whether a section appears in the output. @category utils */
export const isRendered = (s: Section): boolean => s.items.length > 0 || !s.omitWhenEmpty

/**
 * Where one item's text lies in a rendered string, and which packet it shows. `content` is
 * the item's text itself (the same string), so a known count of it can be looked up.
 */
export interface Span {
  readonly start: number
  readonly end: number
  readonly packetId: string
  readonly content: string
}

/** A rendered text, the spans of the item texts in it, and the packet ids it shows, in order. */
export interface SpannedText {
  readonly text: string
  readonly spans: ReadonlyArray<Span>
  readonly ids: ReadonlyArray<string>
  /**
   * Where each piece of the text ends: after each item (its suffix included), after fixed
   * text, after the head of a section shown without items; a section's tail ends its last
   * piece. A piece starts with what precedes it (joiner, head, separator). The cache-stable
   * prefix is cut at these ends (`src/report/prefix.ts`).
   */
  readonly ends: ReadonlyArray<number>
}

// the text as its parts and their length so far, joined once at the end: one flat string,
// where appending made a tree of joined pairs that the first slice of it copies flat again
type Building = { parts: string[]; length: number; spans: Span[]; ids: string[]; ends: number[] }

const add = (out: Building, text: string): void => {
  if (text.length === 0) return
  out.parts.push(text)
  out.length += text.length
}

/** Appends the pieces of one section to a text under construction. */
const appendSection = (out: Building, s: Section): void => {
  add(out, s.head)
  if (s.items.length === 0) out.ends.push(out.length)
  const { items } = s
  for (let n = 0; n < items.length; n++) {
    const i = items[n]!
    if (n > 0) add(out, s.separator)
    add(out, i.prefix)
    if (i.packetId !== undefined) out.ids.push(i.packetId)
    if (i.packetId !== undefined && i.text.length > 0) out.spans.push({ start: out.length, end: out.length + i.text.length, packetId: i.packetId, content: i.text })
    add(out, i.text)
    if (i.suffix !== undefined) add(out, i.suffix)
    out.ends.push(out.length)
  }
  if (s.tail !== undefined && s.tail !== '') {
    add(out, s.tail)
    out.ends[out.ends.length - 1] = out.length
  }
}

/**
 * Sections (and fixed text) joined as one text, with the span of every item's text: what a
 * renderer returns as provenance, so nothing downstream searches the text for an item.
 *
 * @category utils
 */
export const renderBlocks = (blocks: ReadonlyArray<Section | Literal>, joiner: string): SpannedText => {
  const out: Building = { parts: [], length: 0, spans: [], ids: [], ends: [] }
  let first = true
  // a switch ending in absurd, not match: every render and exact count of a build runs it
  for (const b of blocks) {
    if (b._tag === 'Section' && !isRendered(b)) continue
    if (!first) add(out, joinerBefore(b, joiner))
    first = false
    switch (b._tag) {
      case 'Literal':
        add(out, b.text)
        out.ends.push(out.length)
        break
      case 'Section':
        appendSection(out, b)
        break
      default:
        absurd(b)
    }
  }
  return { text: out.parts.join(''), spans: out.spans, ids: out.ids, ends: out.ends }
}

/**
 * The text of one section.
 *
 * @category utils
 */
export const renderSection = (s: Section): string => renderBlocks([s], '').text

/**
 * The whole document as one text.
 *
 * @category utils
 * @since 0.1.0
 */
export const renderText = (doc: Document): string => renderBlocks(doc.blocks, doc.joiner).text

/**
 * Tokens of an item's decoration (prefix and suffix), each counted on its own: what a cut
 * leaves in place.
 *
 * @category utils
 */
export const decorationOf = (i: Item, m: { readonly text: (s: string) => number }): number =>
  m.text(i.prefix) + (i.suffix === undefined ? 0 : m.text(i.suffix))

/**
 * Estimated tokens of a section: head, item prefixes, item texts and separators, each
 * counted on its own. Static strings are counted once per build by the meter.
 *
 * @category utils
 */
export const estimateSection = (s: Section, m: Meter): number =>
  isRendered(s)
    ? m.text(s.head) +
      (s.tail === undefined ? 0 : m.text(s.tail)) +
      s.items.reduce((sum, i) => sum + decorationOf(i, m) + i.tokens, 0) +
      Math.max(0, s.items.length - 1) * m.text(s.separator)
    : 0

/**
 * Estimated tokens of the rendered document. BPE is not exactly additive over
 * concatenation, so the compress stage always verifies with one exact count at the end.
 *
 * @category utils
 */
export const estimate = (doc: Document, m: Meter): number => {
  let total = 0
  let rendered = 0
  // a switch ending in absurd, not match: the engine estimates after every change it makes
  for (const b of doc.blocks) {
    if (b._tag === 'Section' && !isRendered(b)) continue
    if (rendered > 0) total += m.text(joinerOf(b, doc))
    switch (b._tag) {
      case 'Literal':
        total += m.text(b.text)
        break
      case 'Section':
        total += estimateSection(b, m)
        break
      default:
        absurd(b)
    }
    rendered++
  }
  return total
}

/** The text before a block when a block rendered before it: a section's own joiner, else the document's. */
const joinerBefore = (b: Section | Literal, joiner: string): string => {
  // a switch ending in absurd, not match: called for every block of every render
  switch (b._tag) {
    case 'Literal':
      return joiner
    case 'Section':
      return b.joiner ?? joiner
    default:
      return absurd(b)
  }
}

/** The text before a block when a block rendered before it. @category utils */
export const joinerOf = (b: Section | Literal, doc: Document): string => joinerBefore(b, doc.joiner)

/** Replaces one section (by name) in a document. @category utils */
export const withSection = (doc: Document, name: string, f: (s: Section) => Section): Document =>
  mapSections(doc, (s) => (s.name === name ? f(s) : s))
