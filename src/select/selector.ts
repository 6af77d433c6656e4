/**
 * The default selector: score, gate, order, then fill the budget greedily.
 *
 * 1. Scores: relevance (keyword overlap, or cosine similarity when the build has embeddings;
 *    not for history, see below), recency, composite (with the per-type decay and weights of
 *    `config.types`, where given).
 * 2. P0 packets and the task are always kept.
 * 3. Gated packets (everything but P0, the task and history) below `minRelevance` are dropped.
 * 4. The rest is ordered by priority, then by composite score (or MMR, when enabled).
 * 5. Greedy fill within the available budget, floors first and caps held (`./fill.ts`).
 *    Packets sharing a `group` are one unit.
 *
 * History is not relevance-gated: a follow-up such as "and why?" shares no keyword with the
 * turns it refers to. It is taken newest first as one contiguous window that stops at the
 * first turn that does not fit, so the conversation never has holes.
 *
 * Counting is lazy: a unit is tokenized only when it is considered and could fit (a cheap
 * lower bound rejects the rest), and nothing is counted once the budget is full. Preparing
 * (scores, gates, order) and filling are separate steps: `layoutAware` prepares, measures its
 * layout, then fills.
 *
 * @module
 */
import type { Config } from '../config.js'
import type { Packet, PacketType } from '../packet.js'
import type { Exclusion, Gathered, Selected, Warning } from '../phase.js'
import { semanticRelevance, type Vectors } from './embed.js'
import { fill } from './fill.js'
import { keywordExtractor, type KeywordExtractor } from './keywords.js'
import { scoresById } from './scoresById.js'
import { compositeScore, recency, relevance, type Scorer, type Scores } from './score.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Options of the default selector; every part can be replaced. */
export interface SelectOptions {
  /** Relevance scorer; default keyword overlap with the query. */
  readonly relevance?: Scorer
  /** Which packets `minRelevance` applies to; default: all but P0, the task and history. */
  readonly gate?: (p: Packet) => boolean
  /** Tokens to leave free for fixed layout text (headings); default 0. */
  readonly reserve?: number
  /** Layout tokens a packet brings besides its content (a source tag, a label, a separator); default 0. */
  readonly overhead?: (p: Packet) => number
  /**
   * Layout tokens a packet brings that are known only once it is counted: its decoration
   * joined with its text (a label merges with the first word); charged to its exact cost,
   * never to a lower bound. Default none.
   */
  readonly joined?: (p: Packet) => number
  /**
   * The layout's sections: which one a packet goes in, and what opening it costs (a heading
   * and the text joining it to the rest), charged once, with the first packet taken into it.
   * Sections of the always-kept packets are open from the start (their cost is in `reserve`).
   * Default none.
   */
  readonly section?: { readonly of: (p: Packet) => string | undefined; readonly opening: (section: string, p: Packet, at?: number) => number }
  /** Keyword extractor for relevance and MMR; default {@link keywordExtractor}. */
  readonly extract?: KeywordExtractor
  /**
   * `window` (default): history is one newest-first window within the budget. `all`: every
   * history packet passes, outside the budget, for a compressor that fits history itself
   * (a summarizing strategy needs the older turns it summarizes).
   */
  readonly history?: 'window' | 'all'
}

/** A selector stage body: a pure function from gathered to selected. */
export type Selector = (g: Gathered) => Selected

/** Packets kept or dropped together. */
export interface Unit {
  readonly packets: ReadonlyArray<Packet>
  readonly priority: number
  readonly history: boolean
  readonly score: number
  readonly index: number
}

/** The scored, gated and ordered candidates: everything a fill needs. */
export interface Prepared {
  readonly scores: ReadonlyMap<string, Scores>
  readonly always: ReadonlyArray<Packet>
  /** Candidate levels in priority order: other units by score, history newest first. */
  readonly levels: ReadonlyArray<{ readonly others: ReadonlyArray<Unit>; readonly history: ReadonlyArray<Unit> }>
  readonly gatedOut: ReadonlyArray<Exclusion>
  /** Each packet's scores by its place among the packets prepared (what `scores` holds by id). */
  readonly scoresAt?: ReadonlyArray<Scores>
  /** Where each of `always` is among the packets, when `scoresAt` is given: its scores are read there. */
  readonly alwaysAt?: ReadonlyArray<number>
  /** Where each of `gatedOut` is among the packets, when every unit is one packet (else absent). */
  readonly gatedAt?: ReadonlyArray<number>
  readonly warnings: ReadonlyArray<Warning>
  readonly extract: KeywordExtractor
  /** The build's embeddings (`gather`'s `embed`): MMR compares these instead of keywords. */
  readonly vectors?: Vectors
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Always kept, whatever the budget: P0 and the task (the seed's rule). */
export const alwaysKept = (p: Packet): boolean => p.priority === 0 || p.type === 'task'

/**
 * Whether a retriever ranked the packet (`metadata.rank`, set by the `rag` and `memory`
 * gatherers). A retriever's scores are ranks on its own scale (BM25 12.3, cosine 0.25), not
 * probabilities: its top K already passed its judgement, so `minRelevance` does not apply;
 * set `minScore` on the gatherer to drop weak hits by their raw score.
 *
 * @category utils
 */
export const isRetrieved = (p: Packet): boolean => typeof p.metadata['rank'] === 'number'

/**
 * Scores, gates and orders the gathered packets.
 *
 * @category constructors
 * @since 0.1.0
 */
export const prepare = (g: Gathered, options: SelectOptions = {}): Prepared => {
  const { config, now } = g.env
  const extract = options.extract ?? keywordExtractor()
  const lexical = relevance(g.request.query, extract)
  const rel = options.relevance ?? (g.vectors === undefined ? lexical : semanticRelevance(g.vectors, lexical))
  const scorers = typeScorers(config, now)
  const gated = options.gate ?? ((p: Packet) => !alwaysKept(p) && p.type !== 'history' && !isRetrieved(p))

  // packets with the same scores share one record: a build's passages mostly have no
  // timestamp (recency 1) and a handful of relevance values, and each record lives as long
  // as the build's report (the scores are plain readonly data, never written to)
  const same = new Map<number | undefined, Scores>()
  // relevance first, in a loop of its own: scoring a thousand passages is most of a build's
  // selection, and it runs faster with nothing else in the loop (the records below allocate)
  const packets = g.packets
  const n = packets.length
  const rels: Array<number | undefined> = new Array(n)
  let grouped = false
  for (let i = 0; i < n; i++) {
    const p = packets[i]!
    rels[i] = p.type === 'history' && p.relevance === undefined && options.relevance === undefined ? undefined : rel(p)
    if (p.group !== undefined) grouped = true
  }
  // by position: the loops below, the fill and the report read each packet's scores without
  // a lookup by id (the map by id is made only if something asks for it, `./scoresById.ts`)
  const byIndex: Scores[] = new Array(n)
  // the scorers of the type before, and the recency of the timestamp before: a build's
  // packets come in runs of one type, and its passages mostly share one timestamp (the clock)
  let type: PacketType | undefined
  let scorer: ReturnType<typeof scorers> | undefined
  let stamp = Number.NaN
  let c = 0
  for (let i = 0; i < n; i++) {
    const p = packets[i]!
    const r = rels[i]
    if (p.type !== type) {
      scorer = scorers((type = p.type))
      stamp = Number.NaN
    }
    const { rec, comp } = scorer!
    // recency reads nothing of a packet but its timestamp
    if (p.timestamp !== stamp) c = rec(p)
    stamp = p.timestamp
    const composite = comp(r, c)
    let s = same.get(r)
    if (s === undefined || !Object.is(s.relevance, r) || !Object.is(s.recency, c) || !Object.is(s.composite, composite)) same.set(r, (s = { relevance: r, recency: c, composite }))
    byIndex[i] = s
  }
  // (a grouped build judges its units by their members' ids: its first read makes the map)
  const scores = scoresById(packets, byIndex)

  const always: Packet[] = []
  const alwaysAt: number[] = []
  const gatedOut: Exclusion[] = []
  const gatedAt: number[] = []
  const byPriority = new Map<number, { others: Unit[]; history: Unit[] }>()
  let unjudged = false
  // one detail per relevance value: a build's passages share a handful of values (hits over
  // the query's keywords), and formatting a fraction costs more than scoring it
  const details = new Map<number, string>()
  const detailOf = (r: number): string => {
    let d = details.get(r)
    if (d === undefined) details.set(r, (d = `relevance ${round(r)} < ${config.minRelevance}`))
    return d
  }
  const place = (u: Unit): void => {
    let level = byPriority.get(u.priority)
    if (level === undefined) byPriority.set(u.priority, (level = { others: [], history: [] }))
    ;(u.history ? level.history : level.others).push(u)
  }
  if (!grouped) {
    // every packet is a unit of its own (most builds): judged by position, and a unit made
    // only for a packet that stays a candidate, not for the hundreds of passages the gate
    // leaves out (each object that lives through a build costs the collector a copy or two)
    for (let index = 0; index < g.packets.length; index++) {
      const p = g.packets[index]!
      if (alwaysKept(p)) {
        always.push(p)
        alwaysAt.push(index)
        continue
      }
      const s = byIndex[index]!
      if (gated(p)) {
        // as a group is judged below: its best gated member's relevance, floored at 0
        if (s.relevance === undefined) unjudged = true
        else if (Math.max(0, s.relevance) < config.minRelevance) {
          gatedOut.push({ id: p.id, reason: 'below_min_relevance', detail: detailOf(s.relevance) })
          gatedAt.push(index)
          continue
        }
      }
      place({ packets: [p], priority: p.priority, history: p.type === 'history', score: s.composite, index })
    }
  } else
    for (const u of toUnits(g.packets, scores, byIndex)) {
      if (u.packets.some(alwaysKept)) {
        always.push(...u.packets)
        continue
      }
      // a unit is judged by its best gated member; one that cannot be judged is not gated
      let best: number | undefined
      let judged = true
      for (const p of u.packets) {
        if (!gated(p)) continue
        const r = scores.get(p.id)!.relevance
        if (r === undefined) judged = false
        else best = Math.max(best ?? 0, r)
      }
      if (!judged) unjudged = true
      if (judged && best !== undefined && best < config.minRelevance) {
        for (const p of u.packets) gatedOut.push({ id: p.id, reason: 'below_min_relevance', detail: detailOf(scores.get(p.id)!.relevance ?? 0) })
        continue
      }
      place(u)
    }
  const levels = [...byPriority.keys()]
    .sort((a, b) => a - b)
    .map((p) => {
      const level = byPriority.get(p)!
      // conversation order is input order; timestamps only feed recency
      return {
        others: byScore(level.others),
        history: newestFirst(level.history),
      }
    })
  const warnings: Warning[] = unjudged
    ? [
        {
          _tag: 'NoQueryKeywords',
          message: `query ${JSON.stringify(g.request.query)} has no keywords, so relevance could not be judged and min relevance was not applied`,
        },
      ]
    : []
  const base = { scores, always, levels, gatedOut, scoresAt: byIndex, warnings, extract }
  const placed = grouped ? base : { ...base, gatedAt, alwaysAt }
  return g.vectors === undefined ? placed : { ...placed, vectors: g.vectors }
}

export { fill }

/** Best score first, ties in input order. */
const byScoreThenIndex = (a: Unit, b: Unit): number => b.score - a.score || a.index - b.index

/**
 * Units best score first, ties in input order: the order {@link byScoreThenIndex} sorts
 * them in. Units arrive in input order, and a build's scores take a handful of values (a
 * thousand passages without timestamps share a few relevance values), so they are gathered
 * by value and only the values are sorted. Out of input order, or with a score that is not
 * a number, it sorts.
 */
const byScore = (units: Unit[]): Unit[] => {
  const buckets = new Map<number, Unit[]>()
  let last = Number.NEGATIVE_INFINITY
  for (const u of units) {
    if (!(u.index > last) || u.score !== u.score) return units.sort(byScoreThenIndex)
    last = u.index
    const bucket = buckets.get(u.score)
    if (bucket === undefined) buckets.set(u.score, [u])
    else bucket.push(u)
  }
  if (buckets.size === units.length) return units.sort(byScoreThenIndex)
  const out: Unit[] = []
  for (const score of [...buckets.keys()].sort((a, b) => b - a)) for (const u of buckets.get(score)!) out.push(u)
  return out
}

/** History units newest first: they arrive oldest first, else they are sorted. */
const newestFirst = (units: Unit[]): Unit[] => {
  for (let k = 1; k < units.length; k++) if (!(units[k]!.index > units[k - 1]!.index)) return units.sort((a, b) => b.index - a.index)
  return units.reverse()
}

/**
 * The default selector.
 *
 * @example
 * pipe(gathered, defaultSelector())
 * @category constructors
 * @since 0.1.0
 */
export const defaultSelector =
  (options: SelectOptions = {}): Selector =>
  (g) =>
    fill(g, prepare(g, options), options)

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const round = (x: number): number => Math.round(x * 1000) / 1000

/**
 * Recency and composite scorers by packet type: the per-type settings over the global ones,
 * made once per type.
 *
 * @category utils
 */
export const typeScorers = (config: Config, now: number) => {
  const made = new Map<PacketType, { readonly rec: (p: Packet) => number; readonly comp: ReturnType<typeof compositeScore> }>()
  return (type: PacketType) => {
    let s = made.get(type)
    if (s === undefined) {
      const own = config.types[type]
      made.set(
        type,
        (s = {
          rec: recency(now, own?.recencyTau ?? config.recencyTau),
          comp: compositeScore(own?.relevanceWeight ?? config.relevanceWeight, own?.recencyWeight ?? config.recencyWeight),
        }),
      )
    }
    return s
  }
}

/**
 * Groups packets sharing a `group` into one unit, at the position of its first member
 * (`byIndex`: the packets' scores by position, `scores` by id).
 */
const toUnits = (packets: ReadonlyArray<Packet>, scores: ReadonlyMap<string, Scores>, byIndex: ReadonlyArray<Scores>): ReadonlyArray<Unit> => {
  const members = new Map<string, Packet[]>()
  for (const p of packets) {
    if (p.group === undefined) continue
    const group = members.get(p.group)
    if (group === undefined) members.set(p.group, [p])
    else group.push(p)
  }
  const units: Unit[] = []
  for (let index = 0; index < packets.length; index++) {
    const p = packets[index]!
    if (p.group === undefined) {
      units.push({ packets: [p], priority: p.priority, history: p.type === 'history', score: byIndex[index]!.composite, index })
      continue
    }
    const ps = members.get(p.group)
    if (ps === undefined) continue // a later member of a group already placed
    members.delete(p.group)
    let priority = 4
    let score = Number.NEGATIVE_INFINITY
    for (const x of ps) {
      priority = Math.min(priority, x.priority)
      score = Math.max(score, scores.get(x.id)!.composite)
    }
    units.push({ packets: ps, priority, history: ps.every((x) => x.type === 'history'), score, index })
  }
  return units
}
