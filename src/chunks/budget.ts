/**
 * Which rendered chunks fit in a token budget (the policy is described in `./build.ts`).
 *
 * Two tiers. Pinned units (SYSTEM chunks, CRITICAL ones) go first, in state order, each with
 * its call/result partners, charged an upper bound (every segment its own message) so the
 * tier never overshoots; a pinned group that does not fit is left out for good. Then the
 * exact total of what was pinned is taken in one pass. The rest is a walk from the newest unit back over the cut points no call/result group
 * straddles, each step adding the exact change in the final count: the units' parts, the
 * messages they open, merge or split around them, and the Anthropic leading user turn. The
 * walk stops at the first step that does not fit. Linear in the number of units.
 *
 * @module
 */
import type { ChunkRole } from './classify.js'
import type { Unit } from './units.js'

/** What the final count is made of, in the build's format. */
export interface BudgetModel {
  readonly budget: number
  /** Tokens every request costs. */
  readonly request: number
  /** Cost of the system prompt message; absent when there is none. */
  readonly prompt: number | undefined
  /** Tokens a message of this role adds besides its parts. */
  readonly overhead: (role: ChunkRole) => number
  /** Tokens added when the first non-system message has this role (Anthropic's leading user turn). */
  readonly lead: (role: ChunkRole | undefined) => number
}

/** The outcome: which units are in, whether the prompt is, and the exact total. */
export interface Selection {
  readonly included: ReadonlyArray<boolean>
  readonly promptIn: boolean
  readonly total: number
}

/** The system prompt is its own message and never merges: a run key of its own. */
type RunRole = ChunkRole | 'prompt'

const unitCost = (u: Unit): number => u.segments.reduce((s, seg) => seg.costs.reduce((t, c) => t + c, s), 0)
const spoken = (u: Unit): ChunkRole | undefined => u.segments.find((s) => s.role !== 'system')?.role

/** Call/result groups: units sharing a call id, transitively. Returns each unit's group root. */
const groups = (units: ReadonlyArray<Unit>): ReadonlyArray<number> => {
  const parent = units.map((_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!
    return i
  }
  const byCall = new Map<string, number>()
  units.forEach((u, i) => {
    for (const id of u.callIds) {
      const j = byCall.get(id)
      if (j === undefined) byCall.set(id, i)
      else parent[find(i)] = find(j)
    }
  })
  return units.map((_, i) => find(i))
}

/**
 * Chooses the units that fit.
 *
 * @category utils
 * @since 0.1.0
 */
export const selectUnits = (units: ReadonlyArray<Unit>, pinned: ReadonlyArray<boolean>, m: BudgetModel): Selection => {
  const overhead = (r: RunRole): number => (r === 'prompt' ? 0 : m.overhead(r))
  const runs = (roles: ReadonlyArray<RunRole>): number => roles.reduce((s, r, i) => s + (i > 0 && roles[i - 1] === r && r !== 'prompt' ? 0 : overhead(r)), 0)
  const root = groups(units)
  const members = new Map<number, Array<number>>()
  root.forEach((r, i) => {
    const list = members.get(r)
    if (list === undefined) members.set(r, [i])
    else list.push(i)
  })
  const included = units.map(() => false)

  // 1. pinned groups, at an upper bound: every segment its own message, the leading turn reserved
  const promptIn = m.prompt !== undefined && m.request + m.prompt + m.lead('assistant') <= m.budget
  let bound = m.request + (promptIn ? m.prompt! : 0) + m.lead('assistant')
  const decided = new Set<number>()
  for (const r of root) {
    if (decided.has(r) || !members.get(r)!.some((k) => pinned[k])) continue
    decided.add(r) // in or out, a pinned group is not considered again
    const group = members.get(r)!
    const cost = group.reduce((s, k) => s + unitCost(units[k]!) + units[k]!.segments.reduce((t, seg) => t + m.overhead(seg.role), 0), 0)
    if (bound + cost > m.budget) continue
    bound += cost
    for (const k of group) included[k] = true
  }

  // the exact total of what is in so far, in one pass
  const prevRoles: Array<RunRole | undefined> = []
  const fixedRoles: Array<RunRole> = promptIn ? ['prompt'] : []
  let fixedCost = 0
  let firstFixedSpoken = Number.POSITIVE_INFINITY
  units.forEach((u, i) => {
    prevRoles[i] = fixedRoles[fixedRoles.length - 1]
    if (!included[i]) return
    fixedCost += unitCost(u)
    fixedRoles.push(...u.segments.map((s) => s.role))
    if (spoken(u) !== undefined) firstFixedSpoken = Math.min(firstFixedSpoken, i)
  })
  const leadAt = (pos: number): number => m.lead(Number.isFinite(pos) ? spoken(units[pos]!) : undefined)
  let total = m.request + (promptIn ? m.prompt! : 0) + fixedCost + runs(fixedRoles) + leadAt(firstFixedSpoken)

  // 2. the newest run of the rest, never cutting a call/result group
  const candidate = root.map((r) => !decided.has(r))
  const history = units.flatMap((_, i) => (candidate[i] ? [i] : []))
  const firstInHistory = new Map<number, number>()
  history.forEach((i, j) => {
    if (!firstInHistory.has(root[i]!)) firstInHistory.set(root[i]!, j)
  })
  const reach = history.map((i) => firstInHistory.get(root[i]!)!)
  for (let j = reach.length - 2; j >= 0; j--) reach[j] = Math.min(reach[j]!, reach[j + 1]!)
  let cut = history.length
  for (let c = history.length - 1; c >= 0; c--) {
    if (reach[c]! < c) continue
    const from = history[c]!
    const to = cut < history.length ? history[cut]! : units.length
    const prev = prevRoles[from]
    const next = cut < history.length ? units[to]!.segments[0]!.role : undefined
    const span = units.slice(from, to)
    const rolesOf = (keep: (k: number) => boolean): ReadonlyArray<RunRole> => [
      ...(prev === undefined ? [] : [prev]),
      ...span.flatMap((u, k) => (keep(from + k) ? u.segments.map((s) => s.role) : [])),
      ...(next === undefined ? [] : [next]),
    ]
    const added = span.reduce((s, u, k) => s + (candidate[from + k] ? unitCost(u) : 0), 0)
    const firstNow = Math.min(firstFixedSpoken, cut < history.length ? to : Number.POSITIVE_INFINITY)
    const firstThen = Math.min(firstFixedSpoken, from)
    // pinned units in the span keep their decision; every candidate in it joins
    const delta = added + runs(rolesOf((k) => included[k]! || candidate[k]!)) - runs(rolesOf((k) => included[k]!)) + leadAt(firstThen) - leadAt(firstNow)
    if (total + delta > m.budget) break
    total += delta
    for (let k = from; k < to; k++) if (candidate[k]) included[k] = true
    cut = c
  }
  return { included, promptIn, total }
}
