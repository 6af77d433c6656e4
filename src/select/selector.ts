/**
 * The default selector: score, gate, order, then fill the budget greedily.
 *
 * 1. Scores: relevance (not for history, see below), recency, composite.
 * 2. P0 packets and the task are always kept.
 * 3. Gated packets (everything but P0, the task and history) below `minRelevance` are dropped.
 * 4. The rest is ordered by priority, then by composite score (or MMR, when enabled).
 * 5. Greedy fill within the available budget. Packets sharing a `group` are one unit.
 *
 * History is not relevance-gated: a follow-up such as "and why?" shares no keyword with the
 * turns it refers to. It is taken newest first as one contiguous window that stops at the
 * first turn that does not fit, so the conversation never has holes.
 *
 * Counting is lazy: a unit is tokenized only when it is considered and could fit (a cheap
 * lower bound rejects the rest), and nothing is counted once the budget is full.
 *
 * @module
 */
import type { Packet } from '../packet.js'
import type { Exclusion, Gathered, Selected, Selection, Warning } from '../phase.js'
import { tokenLowerBound } from '../tokenize/meter.js'
import { keywordExtractor, type KeywordExtractor } from './keywords.js'
import { mmr, sorted, type Ranking } from './mmr.js'
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
  /** Keyword extractor for relevance and MMR; default {@link keywordExtractor}. */
  readonly extract?: KeywordExtractor
  /** Scores computed by an earlier pass over the same packets, reused instead of recomputed. */
  readonly scores?: ReadonlyMap<string, Scores>
}

/** A selector stage body: a pure function from gathered to selected. */
export type Selector = (g: Gathered) => Selected

interface Unit {
  readonly packets: ReadonlyArray<Packet>
  readonly priority: number
  readonly history: boolean
  readonly score: number
  readonly index: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** Always kept, whatever the budget: P0 and the task (the seed's rule). */
export const alwaysKept = (p: Packet): boolean => p.priority === 0 || p.type === 'task'

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
  (g) => {
    const { config, meter, now, available } = g.env
    const extract = options.extract ?? keywordExtractor()
    const rel = options.relevance ?? relevance(g.request.query, extract)
    const rec = recency(now, config.recencyTau)
    const comp = compositeScore(config.relevanceWeight, config.recencyWeight)
    const gated = options.gate ?? ((p: Packet) => !alwaysKept(p) && p.type !== 'history')

    const scores = new Map<string, Scores>(options.scores)
    for (const p of g.packets) {
      if (scores.has(p.id)) continue
      const r = p.type === 'history' && p.relevance === undefined && options.relevance === undefined ? undefined : rel(p)
      const c = rec(p)
      scores.set(p.id, { relevance: r, recency: c, composite: comp(r, c) })
    }
    const scoreOf = (p: Packet): Scores => scores.get(p.id)!

    const excluded: Exclusion[] = []
    const warnings: Warning[] = []
    const selected: Selection[] = []
    const take = (p: Packet): void => {
      selected.push({ packet: p, tokens: meter.packet(p), scores: scoreOf(p) })
    }
    const decoration = options.overhead ?? (() => 0)

    const units = toUnits(g.packets, scoreOf)
    let ungatedForLackOfKeywords = false
    const candidates: Unit[] = []
    for (const u of units) {
      if (u.packets.some(alwaysKept)) {
        u.packets.forEach(take)
        continue
      }
      const gatedMembers = u.packets.filter(gated)
      const best = Math.max(...gatedMembers.map((p) => scoreOf(p).relevance ?? Number.POSITIVE_INFINITY))
      if (gatedMembers.length > 0 && best === Number.POSITIVE_INFINITY) ungatedForLackOfKeywords = true
      if (gatedMembers.length > 0 && best < config.minRelevance) {
        for (const p of u.packets)
          excluded.push({ id: p.id, reason: 'below_min_relevance', detail: `relevance ${round(scoreOf(p).relevance ?? 0)} < ${config.minRelevance}` })
      } else candidates.push(u)
    }
    if (ungatedForLackOfKeywords)
      warnings.push({
        _tag: 'NoQueryKeywords',
        message: `query ${JSON.stringify(g.request.query)} has no keywords, so relevance could not be judged and min relevance was not applied`,
      })

    let remaining = available - (options.reserve ?? 0) - selected.reduce((s, x) => s + x.tokens + decoration(x.packet), 0)
    const byPriority = new Map<number, Unit[]>()
    for (const u of candidates) {
      const level = byPriority.get(u.priority)
      if (level === undefined) byPriority.set(u.priority, [u])
      else level.push(u)
    }

    for (const priority of [...byPriority.keys()].sort((a, b) => a - b)) {
      const level = byPriority.get(priority)!
      const others = level.filter((u) => !u.history).sort((a, b) => b.score - a.score || a.index - b.index)
      // conversation order is input order; timestamps only feed recency
      const history = level.filter((u) => u.history).sort((a, b) => b.index - a.index)
      const ranking: Ranking<Unit> = config.enableMMR
        ? mmr(others, { lambda: config.mmrLambda, score: (u) => u.score, text: unitText, extract })
        : sorted(others)
      for (let u = ranking.next(); u !== undefined; u = ranking.next()) {
        if (fits(u)) {
          ranking.taken(u)
          u.packets.forEach(take)
        }
      }
      let windowOpen = true
      for (const u of history) {
        if (!windowOpen) overBudget(u)
        else if (fits(u)) u.packets.forEach(take)
        else windowOpen = false
      }
    }

    return { ...g, _phase: 'selected', selected, scores, excluded: [...g.excluded, ...excluded], warnings: [...g.warnings, ...warnings] }

    function fits(u: Unit): boolean {
      const known = u.packets.reduce((s, p) => s + (meter.known(p) ?? tokenLowerBound(p.content)) + decoration(p), 0)
      if (remaining <= 0 || known > remaining) {
        overBudget(u)
        return false
      }
      const tokens = u.packets.reduce((s, p) => s + meter.packet(p) + decoration(p), 0)
      if (tokens > remaining) {
        overBudget(u, tokens)
        return false
      }
      remaining -= tokens
      return true
    }
    /** `cost`: the unit's tokens with layout, when it was counted. */
    function overBudget(u: Unit, cost?: number): void {
      const grouped = u.packets.length > 1 ? ` (with ${u.packets.length - 1} packet(s) of its group)` : ''
      for (const p of u.packets)
        excluded.push({
          id: p.id,
          reason: 'over_budget',
          detail:
            cost !== undefined
              ? `needs ${cost} tokens${grouped}, ${Math.max(0, remaining)} left`
              : remaining <= 0
                ? 'not counted: the budget was full'
                : meter.known(p) === undefined
                  ? `needs at least ${tokenLowerBound(p.content) + decoration(p)} tokens, ${remaining} left`
                  : `needs ${meter.known(p)! + decoration(p)} tokens${grouped}, ${remaining} left`,
        })
    }
  }

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const round = (x: number): number => Math.round(x * 1000) / 1000

const unitText = (u: Unit): string => u.packets.map((p) => p.content).join('\n')

/** Groups packets sharing a `group` into one unit, at the position of its first member. */
const toUnits = (packets: ReadonlyArray<Packet>, scoreOf: (p: Packet) => Scores): ReadonlyArray<Unit> => {
  const members = new Map<string, Packet[]>()
  for (const p of packets) {
    if (p.group === undefined) continue
    const group = members.get(p.group)
    if (group === undefined) members.set(p.group, [p])
    else group.push(p)
  }
  const seen = new Set<string>()
  const units: Unit[] = []
  packets.forEach((p, index) => {
    if (p.group !== undefined) {
      if (seen.has(p.group)) return
      seen.add(p.group)
    }
    const ps = p.group === undefined ? [p] : members.get(p.group)!
    units.push({
      packets: ps,
      priority: Math.min(...ps.map((x) => x.priority)),
      history: ps.every((x) => x.type === 'history'),
      score: Math.max(...ps.map((x) => scoreOf(x).composite)),
      index,
    })
  })
  return units
}
