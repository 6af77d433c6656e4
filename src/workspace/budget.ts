/**
 * Deciding what of each prompt item stays, in tokens:
 *
 * 1. Caps: every item is fitted to its per-file cap (and to the total budget), so a 2 MB
 *    MEMORY.md is tokenized only as far as its cap.
 * 2. Budget: items are taken by priority (P0 first), then by their place in the prompt
 *    (history: newest first). The first item that does not fit is cut to the room left, or
 *    dropped when too little room is left; every item after it is dropped. So lower
 *    priorities always go first, and a big low-priority file never pushes out AGENTS.md.
 * 3. The exact count of the joined prompt settles it. BPE is not additive at the joins, so
 *    the sum of the parts' counts is a little off: `shrinkLast` cuts further when the
 *    prompt came out over the budget, and a second allocation with the budget raised by
 *    the estimate's excess uses what the estimate wasted.
 *
 * @module
 */
import type { Tokenizer } from '../tokenize/tokenizer.js'
import { fitItem, type Fitted } from './fit.js'
import { fileCap, type Settings } from './options.js'
import type { Item, Section } from './sections.js'

/** Why an item is (or is not) in the prompt as it is. */
export type Reason = 'kept' | 'file-cap' | 'section-cap' | 'budget'

/** The fate of one item; `fitted` is absent when it was dropped. */
export interface Decision {
  readonly item: Item
  readonly section: Section
  readonly fitted?: Fitted
  readonly reason: Reason
}

/**
 * Step 1: every item fitted to its per-file cap and the total budget, in prompt order.
 *
 * @category utils
 */
export const capAll = (sections: ReadonlyArray<Section>, s: Settings): ReadonlyArray<Decision> =>
  sections.flatMap((section) => section.items.map((item) => capItem(item, section, s)))

/** Step 2's result: the decisions, and the total they were estimated at. */
export interface Allocation {
  readonly decisions: ReadonlyArray<Decision>
  /** Sum of the parts' own counts and the joins': usually a little over the exact count. */
  readonly estimate: number
  /** True when something was cut or dropped for `budget`. */
  readonly short: boolean
}

/**
 * Step 2: keeps the capped items by priority, then rank, within `budget`.
 *
 * @category utils
 */
export const allocate = (capped: ReadonlyArray<Decision>, s: Settings, budget: number): Allocation => {
  const overheads = new Map<Section, Overhead>()
  const overheadOf = (sec: Section): Overhead => overheads.get(sec) ?? overheads.set(sec, sectionOverhead(sec, s.tokenizer)).get(sec)!
  const decisions = [...capped]
  const used = new Map<Section, number>()
  const closed = new Set<Section>()
  let total = 0
  let stopped = false
  for (const i of allocationOrder(capped)) {
    const d = capped[i]!
    if (d.fitted === undefined) {
      // too big for the whole budget on its own: nothing of lower priority may take its place
      if (d.reason === 'budget') stopped = true
      continue
    }
    const sec = d.section
    if (stopped || closed.has(sec)) {
      decisions[i] = { item: d.item, section: sec, reason: stopped ? 'budget' : 'section-cap' }
      continue
    }
    const started = used.has(sec)
    const o = overheadOf(sec)
    // n kept sections need n − 1 joiners: the first one started goes without
    const overhead = started ? o.sep : o.first + (used.size === 0 ? 0 : o.joiner)
    const budgetRoom = budget - total - overhead
    const sectionRoom = sec.cap === undefined ? Infinity : sec.cap - (used.get(sec) ?? 0) - (started ? overhead : 0)
    const room = Math.min(budgetRoom, sectionRoom)
    let fitted: Fitted | undefined = d.fitted
    let reason = d.reason
    if (d.fitted.tokens > room) {
      reason = sectionRoom < budgetRoom ? 'section-cap' : 'budget'
      fitted = room > 0 ? fitItem(d.item, room, s.tokenizer, s.minCutTokens, d.fitted.wholeTokens) : undefined
      if (reason === 'budget') stopped = true
      else closed.add(sec)
    } else if (reason === 'budget') stopped = true // already cut to the whole budget by step 1
    decisions[i] = fitted === undefined ? { item: d.item, section: sec, reason } : { item: d.item, section: sec, fitted, reason }
    if (fitted !== undefined) {
      total += overhead + fitted.tokens
      used.set(sec, (used.get(sec) ?? 0) + (started ? overhead : 0) + fitted.tokens)
    }
  }
  return { decisions, estimate: total, short: stopped }
}

/**
 * Step 3: cuts or drops the last-kept item (in allocation order) to win back `over`
 * tokens. Returns the decisions unchanged when nothing is kept.
 *
 * @category utils
 */
export const shrinkLast = (decisions: ReadonlyArray<Decision>, over: number, s: Settings): ReadonlyArray<Decision> => {
  const order = allocationOrder(decisions)
  const last = [...order].reverse().find((i) => decisions[i]!.fitted !== undefined)
  if (last === undefined) return decisions
  const d = decisions[last]!
  const limit = d.fitted!.tokens - over
  const fitted = limit > 0 ? fitItem(d.item, limit, s.tokenizer, s.minCutTokens, d.fitted!.wholeTokens) : undefined
  return decisions.map((x, i) => (i === last ? { item: d.item, section: d.section, reason: 'budget', ...(fitted === undefined ? {} : { fitted }) } : x))
}

/**
 * The prompt text of the kept items: sections in order, each `head + items.join(sep) +
 * tail`, each after its joiner (except the first).
 *
 * @category utils
 */
export const renderPrompt = (decisions: ReadonlyArray<Decision>): string => {
  const bySection = new Map<Section, string[]>()
  for (const d of decisions) {
    if (d.fitted === undefined) continue
    const texts = bySection.get(d.section) ?? []
    texts.push(d.fitted.text)
    bySection.set(d.section, texts)
  }
  let out = ''
  for (const [sec, texts] of bySection) out += (out === '' ? '' : sec.joiner) + sec.head + texts.join(sec.sep) + sec.tail
  return out
}

/** Indices by priority, then rank. */
const allocationOrder = (decisions: ReadonlyArray<Decision>): ReadonlyArray<number> =>
  decisions
    .map((_, i) => i)
    .sort((a, b) => {
      const x = decisions[a]!.item
      const y = decisions[b]!.item
      return x.priority - y.priority || x.rank - y.rank
    })

/**
 * Step 1 for one item: fitted to its per-file cap and to the total budget.
 *
 * @category utils
 */
export const capItem = (item: Item, section: Section, s: Settings): Decision => {
  const cap = item.file === undefined || item.kind === 'skills-summary' ? Infinity : fileCap(s, item.file)
  const limit = Math.min(cap, s.maxTokens)
  const fitted = fitItem(item, limit, s.tokenizer, s.minCutTokens)
  const reason = fitted !== undefined && !fitted.truncated ? 'kept' : cap < s.maxTokens ? 'file-cap' : 'budget'
  return fitted === undefined ? { item, section, reason } : { item, section, fitted, reason }
}

/** Tokens a section adds besides its items: its joiner, head and tail, and a separator per further item. */
interface Overhead {
  readonly joiner: number
  readonly first: number
  readonly sep: number
}

const sectionOverhead = (sec: Section, tokenizer: Tokenizer): Overhead => ({
  joiner: tokenizer.count(sec.joiner),
  first: tokenizer.count(sec.head) + tokenizer.count(sec.tail),
  sep: tokenizer.count(sec.sep),
})
