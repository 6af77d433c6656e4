/**
 * The cache-stable prefix of a build's output, as data: a hash of it, its exact tokens, and
 * how many of them are byte for byte what the previous build sent, so a caller sees a
 * provider's prompt-cache hits coming (Anthropic reads what an earlier request wrote at its
 * breakpoints; OpenAI caches the longest prefix it has seen, in 128-token steps).
 *
 * The output is read as *units*, in the order it is sent, from the renderer's own structure
 * (never by re-reading rendered text): for chat messages, each turn (an Anthropic request's
 * system prompt is one), as the renderer's `units` gives them; for a text prompt, each item
 * with what precedes it (joiner, heading, separator), cut where `renderBlocks` says its
 * pieces end. A unit's hash covers its bytes (a message's cache breakpoints excepted: they
 * mark where a cache is written, they are not content).
 *
 * The stable prefix ends before the first *volatile* part: a section marked `volatile` or on
 * the `user` channel (the question, evidence, state, notes), and, for messages, the first
 * turn that shows such a section's packet. Two builds share their first `k` units exactly
 * when their first `k` unit hashes agree; the report's `identical` says how many, and their
 * tokens, counted exactly: a text prefix by the tokenizer (through the counts the build
 * already took), a run of messages as the provider's count of those messages (the request's
 * count is their sum plus its fixed overhead). Hashes are 53-bit (`contentId`): a forecast,
 * not a proof. Nothing is kept between builds: the caller passes the previous build's result
 * or its `prefix`.
 *
 * @module
 */
import type { Counter, Rendered, Renderer } from '../output.js'
import { contentId } from '../packet.js'
import { isRendered, renderBlocks, type Document, type Section, type Span } from '../structure/document.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What a later build compares with: a build's `prefix` (or the whole result) is one. */
export interface PrefixFingerprint {
  /** The output format; prefixes of different formats share nothing. */
  readonly format: string
  /** The hash of each unit of the stable prefix, in the order sent. */
  readonly units: ReadonlyArray<string>
}

/** The part of the stable prefix identical to the previous build's. */
export interface IdenticalPrefix {
  /** Leading units both builds share. */
  readonly units: number
  /** Their exact tokens: what a prompt cache written by the previous request can serve. */
  readonly tokens: number
  /** For a text prompt, the identical text is `output.slice(0, chars)`. */
  readonly chars?: number
}

/** The cache-stable prefix of an output. */
export interface PrefixReport extends PrefixFingerprint {
  /** Hash of the whole stable prefix (its format and every unit). */
  readonly hash: string
  /** Exact tokens of the stable prefix. */
  readonly tokens: number
  /** Against the previous build given as `previous`; absent without one. */
  readonly identical?: IdenticalPrefix
}

/** A previous build as a caller may pass it: its result, or the fingerprint kept from it. */
export type Previous = PrefixFingerprint | { readonly prefix: PrefixFingerprint }

/** One unit of an output, as a renderer's `units` gives it: its bytes' key and its exact tokens. */
export interface OutputUnit {
  readonly key: string
  readonly tokens: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The fingerprint in a previous build as passed: its `prefix`, or itself.
 *
 * @category constructors
 * @since 0.2.0
 */
export const fingerprintOf = (p: Previous): PrefixFingerprint => ('prefix' in p ? p.prefix : p)

/**
 * The report of a stable prefix of units (their hashes), its tokens, and the identical run.
 *
 * @category constructors
 * @since 0.2.0
 */
export const prefixReport = (format: string, units: ReadonlyArray<string>, tokens: number, identical?: IdenticalPrefix): PrefixReport => ({
  format,
  units,
  hash: contentId(`${format}\u0000${units.join(' ')}`),
  tokens,
  ...(identical === undefined ? {} : { identical }),
})

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * What is wrong with a value given as a previous build, if anything: the path inside it
 * (`.units[3]`) and the problem. A build result and its `prefix` pass as they are.
 *
 * @category utils
 * @since 0.2.0
 */
export const previousProblem = (v: unknown): { readonly at: string; readonly value: unknown; readonly problem: string } | undefined => {
  if (typeof v !== 'object' || v === null) return { at: '', value: v, problem: "must be a build's result or its prefix ({ format, units })" }
  const wrapped = 'prefix' in v
  const f = (wrapped ? (v as { prefix: unknown }).prefix : v) as Record<string, unknown> | null
  const at = wrapped ? '.prefix' : ''
  if (typeof f !== 'object' || f === null) return { at, value: f, problem: 'must be { format, units }' }
  if (typeof f['format'] !== 'string') return { at: `${at}.format`, value: f['format'], problem: 'must be a string' }
  const units = f['units']
  if (!Array.isArray(units)) return { at: `${at}.units`, value: units, problem: 'must be an array of unit hashes' }
  const bad = units.findIndex((u) => typeof u !== 'string')
  return bad === -1 ? undefined : { at: `${at}.units[${bad}]`, value: units[bad], problem: 'must be a string' }
}

/** Whether a section's content changes from one request to the next (see the module comment). */
export const isVolatile = (s: Section): boolean => s.volatile === true || s.channel === 'user'

/**
 * How many units two fingerprints share at their start (none across formats).
 *
 * @example
 * sharedUnits(first.prefix, second.prefix) // 41
 * @category utils
 * @since 0.2.0
 */
export const sharedUnits = (previous: PrefixFingerprint, current: PrefixFingerprint): number => {
  if (previous.format !== current.format) return 0
  let k = 0
  while (k < current.units.length && k < previous.units.length && current.units[k] === previous.units[k]) k++
  return k
}

/** The packet ids of the document's volatile sections. */
const volatileIds = (doc: Document): ReadonlySet<string> => {
  const ids = new Set<string>()
  for (const b of doc.blocks) if (b._tag === 'Section' && isVolatile(b)) for (const i of b.items) if (i.packetId !== undefined) ids.add(i.packetId)
  return ids
}

/**
 * How many leading turns of a chat output show no volatile packet, given the packet ids each
 * turn shows (a renderer's `sources`, or `docToTurns(doc).sources`): where the stable prefix
 * ends, and where the Anthropic renderer puts its stable breakpoint.
 *
 * @category utils
 * @since 0.2.0
 */
export const stableTurnCount = (doc: Document, sources: ReadonlyArray<ReadonlyArray<string>>): number => {
  const volatile = volatileIds(doc)
  let n = 0
  while (n < sources.length && sources[n]!.every((id) => !volatile.has(id))) n++
  return n
}

/** What a text prompt's prefix needs: its exact counter of a string and the spans of item texts in it. */
export interface TextCount {
  readonly count: (text: string, spans: ReadonlyArray<Span>) => number
}

/** How many leading blocks of a text prompt are stable: those before the first volatile section shown. */
const stableBlocks = (doc: Document): number => {
  const firstVolatile = doc.blocks.findIndex((b) => b._tag === 'Section' && isRendered(b) && isVolatile(b))
  return firstVolatile === -1 ? doc.blocks.length : firstVolatile
}

/** A text prompt's stable prefix: the blocks before the first volatile section, cut at their pieces' ends. */
const textPrefix = (doc: Document, output: string, previous: PrefixFingerprint | undefined, format: string, c: TextCount): PrefixReport | undefined => {
  const stable = renderBlocks(doc.blocks.slice(0, stableBlocks(doc)), doc.joiner)
  // a renderer of its own whose text is not the layout's: nothing can be said of its prefix
  if (!output.startsWith(stable.text)) return undefined
  const units = stable.ends.map((end, k) => contentId(stable.text.slice(k === 0 ? 0 : stable.ends[k - 1]!, end)))
  const tokens = c.count(stable.text, stable.spans)
  if (previous === undefined) return prefixReport(format, units, tokens)
  const k = sharedUnits(previous, { format, units })
  const chars = k === 0 ? 0 : stable.ends[k - 1]!
  const shared = k === units.length ? tokens : c.count(stable.text.slice(0, chars), stable.spans.filter((s) => s.end <= chars))
  return prefixReport(format, units, tokens, { units: k, tokens: shared, chars })
}

/**
 * The prefix report of a text output whose stable blocks are the very blocks (the same
 * objects) of the output `before` reports on, compared with `previous`: `before`'s units and
 * tokens, nothing rendered but the stable blocks and nothing counted. Undefined when the
 * blocks differ, or `previous` shares only part of them (then {@link outputPrefix}).
 *
 * @category utils
 */
export const unchangedTextPrefix = (before: PrefixReport, beforeDoc: Document, doc: Document, previous: PrefixFingerprint): PrefixReport | undefined => {
  const end = stableBlocks(doc)
  if (before.units.length === 0 || doc.joiner !== beforeDoc.joiner || stableBlocks(beforeDoc) !== end) return undefined
  for (let b = 0; b < end; b++) if (doc.blocks[b] !== beforeDoc.blocks[b]) return undefined
  const k = sharedUnits(previous, before)
  if (k !== before.units.length) return undefined
  const stable = renderBlocks(doc.blocks.slice(0, end), doc.joiner)
  return prefixReport(before.format, before.units, before.tokens, { units: k, tokens: before.tokens, chars: stable.ends[k - 1]! })
}

/**
 * The cache-stable prefix of a rendered output, compared with the previous build's when
 * given. A chat output needs its renderer's `units` (the pipeline's and `fitMessages`'
 * renderers have them); a text output, a text that starts with the layout's. Otherwise the
 * report is empty.
 *
 * @category utils
 * @since 0.2.0
 */
export const outputPrefix = <O>(
  doc: Document,
  renderer: Renderer<O>,
  rendered: Rendered<O>,
  counters: { readonly counter: Counter; readonly text: TextCount },
  previous?: PrefixFingerprint,
): PrefixReport => {
  const empty = prefixReport(renderer.format, [], 0, previous === undefined ? undefined : { units: 0, tokens: 0 })
  if (renderer.shape !== 'messages')
    return typeof rendered.output === 'string' ? (textPrefix(doc, rendered.output, previous, renderer.format, counters.text) ?? empty) : empty
  const all = renderer.units?.(rendered.output, counters.counter)
  if (all === undefined || all.length !== rendered.sources.length) return empty
  const stable = all.slice(0, stableTurnCount(doc, rendered.sources))
  const units = stable.map((u) => contentId(u.key))
  const sum = (n: number): number => stable.slice(0, n).reduce((s, u) => s + u.tokens, 0)
  if (previous === undefined) return prefixReport(renderer.format, units, sum(units.length))
  const k = sharedUnits(previous, { format: renderer.format, units })
  return prefixReport(renderer.format, units, sum(units.length), { units: k, tokens: sum(k) })
}

/**
 * A message's key for its unit: its JSON without cache breakpoints (`cache_control`, or a
 * neutral part's `cacheControl`), which mark where a cache is written but are not content.
 *
 * @category utils
 * @since 0.2.0
 */
export const unitKey = (message: unknown): string =>
  JSON.stringify(message, (k, v: unknown) => (k === 'cache_control' || k === 'cacheControl' ? undefined : v))
