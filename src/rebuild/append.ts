/**
 * The in-memory rebuild: the next build of a conversation, after turns were appended to its
 * history, made from the previous build's result (`./memo.ts`) at the cost of the new turns.
 *
 * The result is the one a cold build of the same request gives (the property test in
 * `test/rebuild/append.test.ts` compares them). It follows the cold build's steps on what
 * changed only:
 *
 * 1. the history gatherer's walk back from the newest turn (lower bounds against the budget),
 *    over the new turns and then the previous build's (their bounds and counts are known);
 * 2. `layoutAware`'s two fills of the history window: the first without the layout's room,
 *    then, when its layout is over the budget, the second with the fixed text and each turn's
 *    decoration charged (both measured on the previous layout: `LayoutCosts`);
 * 3. the layout: the previous document with its context section's turns replaced (a turn
 *    that was laid out before keeps its item; a new one is laid out by the layout itself);
 * 4. the exact count: the previous output's count, less its pieces before the first and after
 *    the last turn both outputs share, plus this output's: those pieces start and end at word
 *    ends, where counts add up (`src/compress/outputCount.ts`), so only the changed text is
 *    tokenized;
 * 5. the report, with the turns that left or joined it.
 *
 * When a step cannot be taken this way (the output would need the compressor, a turn shows a
 * role the layout has not measured, no word end to split at) it says why, and the caller
 * builds cold.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { availableTokens } from '../config.js'
import { historyPacket, historyRanges, toChatMessage } from '../gather/builtins.js'
import { itemCapOf } from '../gather/itemCap.js'
import { textRenderer } from '../output.js'
import { DEFAULT_PRIORITY, type Packet, type PacketType } from '../packet.js'
import type { Exclusion, Request } from '../phase.js'
import type { BuildResult, PacketReport } from '../report.js'
import { outputPrefix, type PrefixFingerprint } from '../report/prefix.js'
import { reachOf } from '../request.js'
import { BEHIND_WINDOW, BUDGET_FULL } from '../select/fill.js'
import { typeScorers } from '../select/selector.js'
import { estimateSection, renderBlocks, sectionsOf, type Document, type Item, type Section } from '../structure/document.js'
import { itemOf, prefixOf } from '../structure/items.js'
import { labelsFor } from '../structure/labels.js'
import type { Meter } from '../tokenize/meter.js'
import { spanCount, splitsAtWordEnds } from '../compress/outputCount.js'
import { exactCountChange } from './splice.js'
import { isPlainTurn, notPlain, sameTurn, type RebuildMemo } from './memo.js'

/** A previous build that can be appended to. */
export type Appendable = BuildResult<string> & { readonly rebuild: RebuildMemo }

/** What the rebuild works with: the build's meter, and the previous build's prefix for `prefix.identical`. */
export interface AppendEnv {
  readonly meter: Meter
  readonly previous: PrefixFingerprint
}

type Turn = { readonly role: string; readonly content: string }

/** One fill of the history window (see `src/select/fill.ts`, which this follows for single-turn units). */
interface Window {
  /** Indices taken, newest first. */
  readonly taken: ReadonlyArray<number>
  readonly excluded: ReadonlyArray<Exclusion>
}

const left = (why: string): E.Either<string, never> => E.left(why)

/**
 * The build of `request` from `prev`, or why it must be built cold.
 *
 * @category utils
 */
export const appendRebuild = (prev: Appendable, request: Request, env: AppendEnv): E.Either<string, BuildResult<string>> => {
  const memo = prev.rebuild
  const { meter } = env
  const { config, now } = memo.key
  const tokenizer = meter.tokenizer
  const h = request.history
  if (!Array.isArray(h) || h.length < memo.length) return left('the history is shorter than before')
  for (let i = 0; i < memo.lead; i++) if (!sameTurn(h[i], memo.turns[i])) return left(`history[${i}] changed`)
  for (let i = memo.from; i < memo.length; i++) if (!sameTurn(h[i], memo.turns[memo.lead + i - memo.from])) return left(`history[${i}] changed`)
  const added = h.slice(memo.length)
  const bad = notPlain(added, itemCapOf(config), tokenizer)
  if (bad !== undefined) return left(bad)
  if (added.some((t) => (t as Turn).role === 'system') && memo.length === memo.lead) return left('the new turns extend the system prompt')
  if (!splitsAtWordEnds(tokenizer)) return left(`counts under ${tokenizer.name} do not add up at word ends`)

  const n = h.length
  const turn = (i: number): Turn => h[i] as Turn
  const newBounds = new Map<string, number>()
  const lb = (text: string): number => {
    let b = memo.lowerBounds.get(text) ?? newBounds.get(text)
    if (b === undefined) newBounds.set(text, (b = tokenizer.lowerBound(text)))
    return b
  }
  const counts = new Map(memo.counts)
  const count = (i: number): number => {
    let c = counts.get(i)
    if (c === undefined) counts.set(i, (c = meter.text(turn(i).content)))
    return c
  }

  // 1. the history gatherer's walk: the first turn made into a packet
  const budget = availableTokens(config)
  const limit = Math.max(0, config.maxHistoryMessages)
  const windowStart = limit === Number.POSITIVE_INFINITY ? memo.lead : Math.max(memo.lead, n - limit)
  let reach = windowStart
  let bound = memo.leadBound
  for (let i = n - 1; i >= windowStart; i--) {
    bound += lb(turn(i).content) + 1
    if (bound > budget) {
      reach = i + 1
      break
    }
  }
  if (reach < memo.reach) return left('the history reaches further back than before')

  // 2. layoutAware's fills
  const available = budget
  const { layout } = memo
  const counted = new Set<number>()
  const fillWindow = (room: number, decoration: (i: number) => number): Window => {
    const taken: number[] = []
    const excluded: Exclusion[] = []
    let remaining = room
    let open = true
    for (let i = n - 1; i >= reach; i--) {
      const id = `history:${i}`
      if (!open) {
        excluded.push({ id, reason: 'over_budget', detail: BEHIND_WINDOW })
        continue
      }
      const d = decoration(i)
      let miss: string | undefined
      if (remaining <= 0) miss = BUDGET_FULL
      else {
        const known = counted.has(i) ? count(i) : undefined
        const b = (known ?? turn(i).content.length) + d > remaining ? (known ?? lb(turn(i).content)) + d : 0
        if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
        else {
          counted.add(i)
          const cost = count(i) + d
          if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
          else remaining -= cost
        }
      }
      if (miss === undefined) taken.push(i)
      else {
        excluded.push({ id, reason: 'over_budget', detail: miss })
        open = false
      }
    }
    return { taken, excluded }
  }
  const alwaysTokens = layout.always.reduce((s, a) => s + a.tokens, 0)
  const first = fillWindow(available - alwaysTokens, () => 0)
  if (first.taken.length === 0) return left('no turn fits')

  // the new turns laid out as the layout lays turns out: their items and decorations
  const context = sectionsOf(prev.doc).find((s) => s.name === 'context')
  if (context === undefined) return left('the previous layout has no context section')
  const fresh = layOut(prev, context, meter, now, added.map((_, k) => memo.length + k), turn, count)
  const roleCost = new Map(layout.roleCost)
  for (const item of fresh.values()) if (!roleCost.has(item.message?.role ?? '')) roleCost.set(item.message?.role ?? '', fresh.costOf(item))
  const costOfRole = (i: number): number => roleCost.get(turn(i).role) ?? Number.NaN
  let estimate = layout.raw + layout.alwaysItems
  let widestTurn = layout.typeCost.get('history') ?? Number.NEGATIVE_INFINITY
  for (const i of first.taken) {
    estimate += count(i) + costOfRole(i)
    widestTurn = Math.max(widestTurn, costOfRole(i))
  }
  if (Number.isNaN(estimate)) return left('a turn shows a role the previous layout did not')
  let final = first
  // the second fill charges each laid-out turn its exact joins (layoutAware): not followed here yet
  if (estimate > available) return left('the history needs layoutAware\'s second fill')
  if (estimate > available) {
    const perType = new Map<PacketType, number>([...layout.typeCost, ['history', widestTurn]])
    const widest = Math.max(0, ...perType.values())
    const fixed = Math.max(0, layout.raw)
    const reserved = layout.always.reduce((s, a) => s + a.tokens + (perType.get(a.type) ?? widest), 0)
    final = fillWindow(available - fixed - reserved, () => widestTurn)
  }
  if (final.taken.length === 0) return left('no turn fits')

  // 3. the layout: the previous document with the window's turns
  const before = new Map(context.items.map((item) => [item.packetId, item]))
  const window = [...final.taken].reverse()
  const missing = window.filter((i) => !before.has(`history:${i}`) && i < memo.length)
  const older = missing.length === 0 ? undefined : layOut(prev, context, meter, now, missing, turn, count)
  const items: Item[] = []
  for (const i of window) {
    const id = `history:${i}`
    const item = before.get(id) ?? fresh.get(id) ?? older?.get(id)
    if (item === undefined) return left(`${id} could not be laid out`)
    items.push(item)
  }
  const doc: Document = { ...prev.doc, blocks: prev.doc.blocks.map((b) => (b === context ? { ...context, items } : b)) }

  // 4. the exact count, from the previous one
  const was = renderBlocks(prev.doc.blocks, prev.doc.joiner)
  const rendered = textRenderer.render(doc)
  const spans = rendered.spans.get(rendered.output) ?? []
  const tokens = exactCountChange({ tokenizer, before: { text: was.text, spans: was.spans, tokens: prev.tokenCount }, after: { text: rendered.output, spans }, known: (content) => meter.counted(content) ?? knownCount(items, context.items, content) })
  if (tokens === undefined) return left('the outputs share no turn with a word end to split at')
  if (tokens > available) return left('the output needs the compressor')

  // 5. the report
  const { rec, comp } = typeScorers(config, now)('history')
  const reachReports: PacketReport[] = []
  // the previous reports of turns from its reach on, in order; this build's exclusions, newest first below the window
  const at = prev.packets.findIndex((p) => p.id === `history:${memo.reach}`)
  if (at < 0) return left('the previous report lists no turn')
  const missAt = n - 1 - final.taken.length
  const priority = DEFAULT_PRIORITY.history
  for (let i = reach; i < n; i++) {
    const id = `history:${i}`
    const scores = i < memo.length ? prev.packets[at + i - memo.reach]!.scores : scoresOf(historyPacket(toChatMessage(turn(i) as never), i, turn(i).content, now), rec, comp)
    const tokens = counted.has(i) ? count(i) : undefined
    const x = i > missAt ? undefined : final.excluded[missAt - i]!
    // literals, as in finish: a spread followed by more properties costs ~2 µs per object on Node 20
    reachReports.push(
      x === undefined
        ? { id, type: 'history', priority, source: 'history', tokens, scores, status: 'kept', section: 'context' }
        : { id, type: 'history', priority, source: 'history', tokens, scores, status: 'dropped', reason: x.reason, detail: x.detail! },
    )
  }
  const packets = [...prev.packets.slice(0, at), ...reachReports, ...prev.packets.slice(at + memo.length - memo.reach)]
  const excluded = [...historyRanges({ lead: memo.lead, windowStart, reach, start: reach, limit, budget, own: false }), ...final.excluded]
  const result: BuildResult<string> = {
    output: rendered.output,
    sources: rendered.sources,
    format: textRenderer.format,
    tokenCount: tokens,
    tokenCountExact: tokenizer.exact,
    budget: { ...prev.budget, used: tokens },
    included: rendered.sources[0] ?? [],
    excluded,
    truncated: [],
    sections: prev.sections.map((x) => (x.name === 'context' ? { ...x, tokens: estimateSection({ ...context, items }, meter), packetIds: items.map((i) => i.packetId!) } : x)),
    packets,
    failures: [],
    warnings: [],
    doc,
    prefix: outputPrefix(doc, textRenderer, rendered, { counter: { count: meter.text }, text: { count: (text, s) => spanCount(tokenizer, text, s, meter.counted) } }, env.previous),
    stats: meter.stats(),
  }
  return E.right({ ...result, rebuild: nextMemo(memo, h, reach, counts, roleCost, lb) })
}

/** The scores a cold build gives a history packet (relevance is not judged for history). */
const scoresOf = (p: Packet, rec: (p: Packet) => number, comp: (r: number | undefined, c: number) => number) => {
  const c = rec(p)
  return { relevance: undefined, recency: c, composite: comp(undefined, c) }
}

/** The count of an item's text among the items of the two layouts. */
const knownCount = (a: ReadonlyArray<Item>, b: ReadonlyArray<Item>, content: string): number | undefined =>
  a.find((i) => i.text === content)?.tokens ?? b.find((i) => i.text === content)?.tokens

/**
 * Turns `indices` laid out as the default layout lays out a turn in its context section (its
 * speaker label, then its text): their items by packet id, and what an item adds besides its text.
 */
const layOut = (prev: Appendable, context: Section, meter: Meter, now: number, indices: ReadonlyArray<number>, turn: (i: number) => Turn, count: (i: number) => number) => {
  const labels = labelsFor(prev.rebuild.key.config.locale)
  const byId = new Map<string, Item>()
  for (const i of indices) {
    const packet = historyPacket(toChatMessage(turn(i) as never), i, turn(i).content, now)
    byId.set(packet.id, itemOf({ packet, tokens: count(i), scores: { relevance: undefined, recency: 0, composite: 0 } }, prefixOf(packet, labels)))
  }
  const separator = meter.text(context.separator)
  return Object.assign(byId, { costOf: (i: Item) => meter.text(i.prefix) + (i.suffix === undefined ? 0 : meter.text(i.suffix)) + separator })
}

/** The memo of the rebuilt result: the same settings, the turns it read, and what it knows. */
const nextMemo = (
  memo: RebuildMemo,
  h: ReadonlyArray<unknown>,
  reach: number,
  counts: ReadonlyMap<number, number>,
  roleCost: ReadonlyMap<string, number>,
  lb: (text: string) => number,
): RebuildMemo => {
  const from = Math.min(reach, reachOf(h, { budget: availableTokens(memo.key.config), lowerBound: lb }).from)
  const bounds = new Map<string, number>()
  for (let i = 0; i < memo.lead; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  for (let i = from; i < h.length; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  const kept = new Map<number, number>()
  for (const [i, c] of counts) if (i >= reach) kept.set(i, c)
  return {
    ...memo,
    length: h.length,
    from,
    reach,
    turns: [...h.slice(0, memo.lead), ...h.slice(from)],
    lowerBounds: bounds,
    counts: kept,
    layout: { ...memo.layout, roleCost },
  }
}

export { isPlainTurn }
