/**
 * The selector's fill: prepared candidates into the budget, honouring the per-type shares.
 *
 * Two passes over the same prepared order (the fill does not re-rank):
 * 1. floors: each floored type, in packet-type order, takes its own units in selector order
 *    (the newest turns first for history, a contiguous window) while they fit its floor's
 *    room; what it cannot fill stays with everyone;
 * 2. the greedy fill: by priority level, the other units by score (or MMR), then the history
 *    window, each taken while it fits the budget and its type's cap.
 *
 * So a floored type keeps at least what a fill of that type alone into its floor would
 * keep, a capped type never takes more than its cap, and the budget holds as before. A unit
 * left out because a cap was full is reported `type_cap`; one that would have fitted in the
 * room floors hold is reported `type_floor`; each detail says which share and how much.
 *
 * Counting is lazy as in the selector: a cheap lower bound rejects a unit before it is
 * tokenized, and nothing is counted once the budget is full.
 *
 * @module
 */
import type { Packet, PacketType } from '../packet.js'
import type { Exclusion, ExclusionReason, Gathered, Selected, Selection } from '../phase.js'
import { cosine, type Vectors } from './embed.js'
import { mmr, sorted, type Ranking } from './mmr.js'
import type { Prepared, SelectOptions, Unit } from './selector.js'
import { scoresOf } from './scoresById.js'
import { leave, leaveNeeding, leftOut, needsText, worded } from './leftOut.js'
import { percent, shareRooms } from './shares.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

// a packet excluded with one of these may still have been counted by an earlier fill
/** The detail of a unit left out because nothing was left. */
export const BUDGET_FULL = 'the budget was full'
/** The detail of a history turn behind the window's first miss. */
export const BEHIND_WINDOW = 'older than a turn that did not fit (history is one contiguous window)'

/**
 * Fills the budget from prepared candidates (see the module comment).
 *
 * @category constructors
 * @since 0.1.0
 */
export const fill = (g: Gathered, prepared: Prepared, options: SelectOptions = {}): Selected => {
  const [s, left] = fillUnworded(g, prepared, options)
  return { ...s, excluded: [...s.excluded, ...left()] }
}

/**
 * {@link fill}, with what it left out given apart, worded when asked (`./leftOut.ts`): the
 * selection's `excluded` holds only what came before the fill (the gatherers' and the
 * relevance gate's), the function gives the fill's own, as {@link fill} words them (when
 * asked: a caller that only measures the fill words nothing), and puts each one of a unit of
 * one packet in `at` at the unit's `index`.
 *
 * @category constructors
 */
export const fillUnworded = (
  g: Gathered,
  prepared: Prepared,
  options: SelectOptions = {},
): readonly [Selected, (at?: Array<Exclusion | undefined>) => ReadonlyArray<Exclusion>] => {
  const { config, meter, available } = g.env
  const decoration = options.overhead ?? (() => 0)
  const joinedOf = options.joined
  const sections = options.section
  // sections some packet taken opens already (the always-kept packets' are part of the reserve)
  const opened = new Set<string>()
  const windowed = options.history !== 'all'
  const selected: Selection[] = []
  const left = leftOut()
  // `at`: where the packet is among the gathered ones, when known (a unit of one packet is at
  // its `index`); layouts read input order from it (`Selection.at`). `place`: where its
  // scores are, when known (an always-kept packet's, which the selection does not carry)
  const take = (p: Packet, at?: number, place = at): void => {
    const scores = scoresOf(prepared, p, place)
    selected.push(at === undefined ? { packet: p, tokens: meter.packet(p), scores } : { packet: p, tokens: meter.packet(p), scores, at })
  }
  for (let k = 0; k < prepared.always.length; k++) {
    const p = prepared.always[k]!
    take(p, undefined, prepared.alwaysAt?.[k])
    const name = sections?.of(p)
    if (name !== undefined) opened.add(name)
  }
  let remaining = available - (options.reserve ?? 0) - selected.reduce((s, x) => s + x.tokens + decoration(x.packet), 0)

  const rooms = shareRooms(config.types, remaining)
  const used = new Map<PacketType, number>() // tokens taken per type, decoration included
  const held = new Map<PacketType, number>() // tokens taken by each type's floor
  // units the floors took; with no floors nothing is taken before the greedy fill reaches it
  // (each unit comes up once there), so nothing is recorded
  const anyFloor = rooms.floors.length > 0
  const taken = new Set<Unit>()
  // loops, not reduce: these run several times for each unit a fill considers, and a
  // callback closing over `above` is one more allocation each time
  /** A packet's exact cost: its count, its decoration, and what it adds joined with its text. */
  // the join first: it counts a packet not counted yet with its decoration, in one pass
  const exactOf = (p: Packet): number => {
    const joined = joinedOf === undefined ? 0 : joinedOf(p)
    return meter.packet(p) + decoration(p) + joined
  }
  /** What the sections `u` would open cost (a heading shown once its first packet is). */
  const openingsOf = (u: Unit): number => {
    if (sections === undefined) return 0
    if (u.packets.length === 1) {
      const p = u.packets[0]!
      const name = sections.of(p)
      return name === undefined || opened.has(name) ? 0 : sections.opening(name, p, u.index)
    }
    // a group of several packets may open several sections, each once
    const seen: string[] = []
    let sum = 0
    for (const p of u.packets) {
      const name = sections.of(p)
      if (name === undefined || opened.has(name) || seen.includes(name)) continue
      seen.push(name)
      sum += sections.opening(name, p)
    }
    return sum
  }
  const costOf = (u: Unit): number => {
    let sum = 0
    for (const p of u.packets) sum += exactOf(p)
    return sum + openingsOf(u)
  }
  const boundOf = (u: Unit, above?: number): number => {
    let sum = 0
    for (const p of u.packets) sum += meter.atLeast(p, above) + decoration(p)
    return sum
  }
  // a lower bound never exceeds the text's length (every token holds a character): only a
  // unit longer than the room left can be ruled out by one, so shorter ones skip the bound
  const longestOf = (u: Unit): number => {
    let sum = 0
    for (const p of u.packets) sum += (meter.known(p) ?? p.content.length) + decoration(p)
    return sum
  }
  // most builds cap no type: then nothing below keeps count per type or asks about caps
  const anyCap = rooms.caps.size > 0
  /** Takes `u`, which costs `cost` (its {@link costOf}, which the caller has just taken). */
  const takeUnit = (u: Unit, cost: number): void => {
    if (anyCap) for (const p of u.packets) used.set(p.type, (used.get(p.type) ?? 0) + exactOf(p))
    remaining -= cost
    if (sections !== undefined)
      for (const p of u.packets) {
        const name = sections.of(p)
        if (name !== undefined) opened.add(name)
      }
    if (anyFloor) taken.add(u)
    if (u.packets.length === 1) take(u.packets[0]!, u.index)
    else for (const p of u.packets) take(p)
  }
  /** Why the unit would break its type's cap (by lower bounds, or `exact` counts), if it would. */
  const capBroken = (u: Unit, exact: boolean): string | undefined => {
    if (!anyCap) return undefined
    for (const p of u.packets) {
      const cap = rooms.caps.get(p.type)
      if (cap === undefined) continue
      const own = u.packets.reduce((s, x) => (x.type === p.type ? s + (exact ? exactOf(x) : meter.atLeast(x) + decoration(x)) : s), 0)
      const has = used.get(p.type) ?? 0
      if (has + own > cap.tokens)
        return `${p.type} is capped at ${percent(cap.share)} of the selectable room (${cap.tokens} tokens) and has ${has}; this needs ${exact ? '' : 'at least '}${own}`
    }
    return undefined
  }

  // 1. floors
  for (const floor of rooms.floors) {
    if (floor.type === 'history' && !windowed) continue
    let room = floor.tokens
    for (const level of prepared.levels) {
      const history = floor.type === 'history'
      for (const u of history ? level.history : level.others) {
        if (u.packets[0]!.type !== floor.type || taken.has(u)) continue
        const fitsFloor = boundOf(u) <= Math.min(room, remaining) && costOf(u) <= Math.min(room, remaining) && capBroken(u, true) === undefined
        if (fitsFloor) {
          const cost = costOf(u)
          takeUnit(u, cost)
          room -= cost
          held.set(floor.type, (held.get(floor.type) ?? 0) + cost)
        } else if (history) break // the window stops at its first miss
      }
    }
  }

  // 2. the greedy fill
  const exclude = (u: Unit, reason: ExclusionReason, detail: string): void => leave(left, u, reason, detail)
  /**
   * Over the budget, needing `tokens` (a lower bound with `atLeast`; undefined: the budget was
   * full). A floor decided when the unit would fit the room other types' floors hold.
   */
  const missed = (u: Unit, tokens: number | undefined, atLeast: boolean): void => {
    // most builds set no floors: nothing holds room, and no list is made per unit left out
    if (held.size === 0) return tokens === undefined ? exclude(u, 'over_budget', BUDGET_FULL) : leaveNeeding(left, u, tokens, atLeast, remaining)
    const detail = tokens === undefined ? BUDGET_FULL : needsText(u, tokens, atLeast, remaining)
    const own = u.packets[0]!.type
    const holders = rooms.floors.filter((f) => f.type !== own && (held.get(f.type) ?? 0) > 0)
    const holding = holders.reduce((s, f) => s + held.get(f.type)!, 0)
    if (holding > 0 && (tokens ?? boundOf(u)) <= Math.max(0, remaining) + holding)
      exclude(u, 'type_floor', `${detail}; the floor of ${holders.map((f) => `${f.type} (${percent(f.share)}) holds ${held.get(f.type)!}`).join(', ')}`)
    else exclude(u, 'over_budget', detail)
  }
  /** What `u` costs when it fits (see {@link costOf}); undefined, once its exclusion is recorded, when not. */
  const fitting = (u: Unit): number | undefined => {
    if (remaining <= 0) {
      missed(u, undefined, false)
      return undefined
    }
    // one packet and no caps (most units of most builds): the steps below, with its
    // decoration and known count looked up once, not once per step
    if (!anyCap && u.packets.length === 1) {
      const p = u.packets[0]!
      const d = decoration(p)
      const known = meter.known(p)
      if ((known ?? p.content.length) + d > remaining) {
        // bounded once (with floors, the floors' pass may have bounded it: the meter remembers that)
        const b = (known ?? (anyFloor ? meter.atLeast(p, remaining) : meter.tokenizer.lowerBound(p.content, remaining))) + d
        if (b > remaining) {
          missed(u, b, known === undefined)
          return undefined
        }
      }
      const joined = joinedOf === undefined ? 0 : joinedOf(p)
      const cost = (known ?? meter.packet(p)) + d + joined + openingsOf(u)
      if (cost > remaining) {
        missed(u, cost, false)
        return undefined
      }
      return cost
    }
    const bound = longestOf(u) > remaining ? boundOf(u, remaining) : 0
    const capped = capBroken(u, false)
    if (capped !== undefined) {
      exclude(u, 'type_cap', capped)
      return undefined
    }
    if (bound > remaining) {
      missed(u, bound, meter.known(u.packets[0]!) === undefined)
      return undefined
    }
    const exactCap = capBroken(u, true)
    if (exactCap !== undefined) {
      exclude(u, 'type_cap', exactCap)
      return undefined
    }
    const cost = costOf(u)
    if (cost > remaining) {
      missed(u, cost, false)
      return undefined
    }
    return cost
  }

  const similarity = prepared.vectors === undefined ? undefined : unitSimilarity(prepared.vectors)
  for (const level of prepared.levels) {
    const ranking: Ranking<Unit> = config.enableMMR
      ? mmr(level.others, { lambda: config.mmrLambda, score: (u) => u.score, text: unitText, extract: prepared.extract, similarity })
      : sorted(level.others)
    for (let u = ranking.next(); u !== undefined; u = ranking.next()) {
      const floored = anyFloor && taken.has(u)
      const cost = floored ? undefined : fitting(u)
      if (floored || cost !== undefined) {
        ranking.taken(u)
        if (cost !== undefined) takeUnit(u, cost)
      }
    }
    let open = true
    for (const u of level.history) {
      if (anyFloor && taken.has(u)) continue
      if (!windowed) {
        if (u.packets.length === 1) take(u.packets[0]!, u.index)
        else for (const p of u.packets) take(p)
      }
      else if (!open) exclude(u, 'over_budget', BEHIND_WINDOW)
      else {
        const cost = fitting(u)
        if (cost === undefined) open = false
        else takeUnit(u, cost)
      }
    }
  }

  const s: Selected = {
    ...g,
    _phase: 'selected',
    selected,
    scores: prepared.scores,
    excluded: [...g.excluded, ...prepared.gatedOut],
    warnings: [...g.warnings, ...prepared.warnings],
  }
  return [s, (at) => worded(left, at)]
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const unitText = (u: Unit): string => u.packets.map((p) => p.content).join('\n')

/** Cosine similarity of two units' first embedded packets; undefined (keywords decide) when one has none. */
const unitSimilarity =
  (vectors: Vectors) =>
  (a: Unit, b: Unit): number | undefined => {
    const va = vectorOf(vectors, a)
    const vb = vectorOf(vectors, b)
    return va === undefined || vb === undefined ? undefined : cosine(va, vb)
  }

const vectorOf = (vectors: Vectors, u: Unit): ReadonlyArray<number> | undefined => {
  for (const p of u.packets) {
    const v = vectors.byId.get(p.id)
    if (v !== undefined) return v
  }
  return undefined
}
