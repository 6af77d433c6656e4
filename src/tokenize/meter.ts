/**
 * The per-build token meter: counts each packet at most once per build and each distinct
 * text once per cache. One meter lives for one build; it is created by the gather stage and
 * travels with the build's data, so nothing is shared behind the caller's back.
 *
 * @module
 */
import { edgesOf, wordEnds, type Edges, type Join } from './wordEdges.js'
import type { Packet } from '../packet.js'
import { cachedCount, type TokenCache } from './cache.js'
import type { Tokenizer } from './tokenizer.js'

/** How much tokenizing a build did; tests use it to prove laziness. */
export interface MeterStats {
  /** Calls that reached the tokenizer (cache misses). */
  readonly tokenizerCalls: number
  /** UTF-16 code units passed to the tokenizer. */
  readonly charsTokenized: number
  readonly cacheHits: number
}

/** Counts texts and packets for one build. */
export interface Meter {
  readonly tokenizer: Tokenizer
  /** Tokens of a text; distinct texts are counted once per build (and per cache, if any). */
  readonly text: (text: string) => number
  /** Tokens of a packet's content: its `tokens` field if given, else counted once per build. */
  readonly packet: (p: Packet) => number
  /** Tokens already known for a packet, without counting. */
  readonly known: (p: Packet) => number | undefined
  /**
   * The known count, or else the tokenizer's cheap lower bound (taken once per packet; with
   * `above`, it may stop once past it); never tokenizes.
   */
  readonly atLeast: (p: Packet, above?: number) => number
  /**
   * The exact count of a text this meter has counted (tokenized, or found in the cache), or
   * undefined. Never a packet's declared `tokens`, which a caller may have estimated: the
   * compress stage builds the output's exact count from these.
   */
  readonly counted: (text: string) => number | undefined
  /** {@link Meter.text} by another name: what composing an output's count from pieces counts with. */
  readonly once: (text: string) => number
  /**
   * The word edges of a text (`compress/outputCount.ts`), counted with {@link Meter.once}, found
   * once per build: each content's are needed to join it to its decoration and again to
   * compose every output count around it.
   */
  readonly edges: (text: string) => Edges | undefined
  /** The edges {@link Meter.edges} found for a text already, without looking for them. */
  readonly found: (text: string) => Edges | undefined
  /**
   * The count of `before + p.content + after` for a packet not counted yet, taken in one pass
   * with the content's word ends (`Tokenizer.countEnds`): the tokens between its first and
   * last word end are the same in the content and in the line (`compress/outputCount.ts`), so
   * the content's count, its {@link Meter.edges} and its {@link Meter.joined} come from that
   * pass and the counts of its first and last word. Undefined when it cannot be done so (the
   * packet counted already or declaring its `tokens`, a content without a word end, a
   * tokenizer without `countEnds`, a cache across builds): then count the parts.
   */
  readonly laidOut: (p: Packet, before: string, after: string) => number | undefined
  /**
   * How a text was last joined to its decoration (`compress/outputCount.ts`), remembered by
   * {@link Meter.join}: composing an output's count takes the text between two items from it.
   */
  readonly joined: (text: string) => Join | undefined
  readonly join: (text: string, join: Join) => void
  readonly stats: () => MeterStats
}

/**
 * @example
 * const m = meter(tokenizer)
 * m.packet(p) // counts
 * m.packet(p) // remembered
 * @category constructors
 * @since 0.1.0
 */
export const meter = (tokenizer: Tokenizer, cache?: TokenCache): Meter => {
  const byPacket = new Map<string, number>()
  // lower bounds taken: a fill's two passes and its cap checks ask again (a bound cut short
  // by `above` stays a valid, if weaker, bound)
  const bounds = new Map<string, number>()
  // every text counted, whatever its length: each distinct text reaches the tokenizer once a
  // build (the history's walk counts a turn the selector then takes, `gather/walkBound.ts`)
  const exact = new Map<string, number>()
  // null: the text has no word end (looked for, not found)
  const edges = new Map<string, Edges | null>()
  const joins = new Map<string, Join>()
  let tokenizerCalls = 0
  let charsTokenized = 0
  let cacheHits = 0
  // methods, not named arrows: a loader that keeps function names (tsx, esbuild's keepNames)
  // defines `name` on every named closure as it is made, ~2 µs each, and a rebuild, which
  // makes a meter and runs in well under a millisecond, would pay it for each of them
  const own = {
    count(text: string): number {
      tokenizerCalls++
      charsTokenized += text.length
      return tokenizer.count(text)
    },
    counts(value: string): number {
      const tokens = viaCache(value)
      exact.set(value, tokens)
      return tokens
    },
    once(value: string): number {
      return value.length === 0 ? 0 : (exact.get(value) ?? own.counts(value))
    },
  }
  const viaCache = cachedCount(tokenizer, cache, own.count, () => cacheHits++)
  // a text not counted yet is counted with its edges in one pass, when the tokenizer can (and
  // no cache across builds holds its count)
  const countEnds = cache === undefined ? tokenizer.countEnds : undefined
  const endsCounted = (value: string): Edges | undefined => {
    const ends = wordEnds(value, true)
    if (ends === undefined) return undefined
    tokenizerCalls++
    charsTokenized += value.length
    const c = countEnds!(value, ends[0], ends[1])
    exact.set(value, c.count)
    return { first: ends[0], last: ends[1], head: c.head, tail: c.tail }
  }
  const { once } = own
  const text = once
  return {
    tokenizer,
    text,
    packet(p) {
      const known = p.tokens ?? byPacket.get(p.id)
      if (known !== undefined) return known
      const tokens = text(p.content)
      byPacket.set(p.id, tokens)
      return tokens
    },
    known(p) {
      return p.tokens ?? byPacket.get(p.id)
    },
    atLeast(p, above) {
      const known = p.tokens ?? byPacket.get(p.id) ?? bounds.get(p.id)
      if (known !== undefined) return known
      const b = above === undefined ? tokenizer.lowerBound(p.content) : tokenizer.lowerBound(p.content, above)
      bounds.set(p.id, b)
      return b
    },
    counted(value) {
      return value.length === 0 ? 0 : exact.get(value)
    },
    once,
    edges(value) {
      let e = edges.get(value)
      if (e === undefined) edges.set(value, (e = (countEnds === undefined || exact.has(value) ? edgesOf(once, value) : endsCounted(value)) ?? null))
      return e ?? undefined
    },
    laidOut(p, before, after) {
      const value = p.content
      if (countEnds === undefined || p.tokens !== undefined || byPacket.has(p.id) || exact.has(value) || edges.has(value)) return undefined
      const ends = wordEnds(value, true)
      if (ends === undefined) return undefined
      const line = before + value + after
      tokenizerCalls++
      charsTokenized += line.length
      const c = countEnds(line, before.length + ends[0], before.length + ends[1])
      const head = once(value.slice(0, ends[0]))
      const tail = once(value.slice(ends[1]))
      // the content: its first word, the middle the line has too, its last word
      const tokens = head + c.count - c.head - c.tail + tail
      exact.set(value, tokens)
      byPacket.set(p.id, tokens)
      edges.set(value, { first: ends[0], last: ends[1], head, tail })
      joins.set(value, { before, after, opening: c.head, closing: c.tail })
      return c.count
    },
    found(value) {
      return edges.get(value) ?? undefined
    },
    joined(value) {
      return joins.get(value)
    },
    join(value, j) {
      joins.set(value, j)
    },
    stats() {
      return { tokenizerCalls, charsTokenized, cacheHits }
    },
  }
}
