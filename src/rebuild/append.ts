/**
 * The in-memory rebuild: the next build of a conversation, after turns were appended to its
 * history, made from the previous build's result (`./memo.ts`) at the cost of the new turns.
 *
 * The result is the one a cold build of the same request gives (the property test in
 * `test/rebuild/append.test-prop.ts` compares them). It follows the cold build's steps on what
 * changed only:
 *
 * 1. the history gatherer's walk back from the newest turn (lower bounds against the budget),
 *    over the new turns and then the previous build's (their bounds and counts are known);
 * 2. `layoutAware`'s two fills of the history window: the first without the layout's room,
 *    then, when its layout is over the budget, the second, which charges each turn of the
 *    first layout its label joined with its text, and the layout's own text (the first
 *    layout's exact count less its items'). The appended turns change the first layout's
 *    newest end and its oldest end moves, so its count comes from the previous first
 *    layout's (kept in the memo) as in step 4, and only the new turns' joins are counted;
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
import { DEFAULT_PRIORITY, type Packet } from '../packet.js'
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
import { joinedCount, meterCount, spanCount, splitsAtWordEnds } from '../compress/outputCount.js'
import { exactCountChange } from './splice.js'
import { HISTORY, isPlainTurn, notPlain, sameTurn, type RebuildMemo } from './memo.js'

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
  /** Why the newest turn not taken was left out, if one was. */
  readonly miss: string | undefined
}

/** A window's exclusions, newest first: its first miss, then every older turn from `reach` on behind it. */
const exclusionsOf = (w: Window, reach: number, n: number): ReadonlyArray<Exclusion> => {
  if (w.miss === undefined) return []
  const at = n - 1 - w.taken.length
  const excluded: Exclusion[] = [{ id: `history:${at}`, reason: 'over_budget', detail: w.miss }]
  for (let i = at - 1; i >= reach; i--) excluded.push({ id: `history:${i}`, reason: 'over_budget', detail: BEHIND_WINDOW })
  return excluded
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
  // the meter's lower bound of a turn not counted yet: taken once per build, cut short past
  // the room it was first asked about (a fill's detail shows it)
  const bounds = new Map<number, number>()
  const atLeast = (i: number, above: number): number => {
    let b = bounds.get(i)
    if (b === undefined) bounds.set(i, (b = tokenizer.lowerBound(turn(i).content, above)))
    return b
  }
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
    let remaining = room
    for (let i = n - 1; i >= reach; i--) {
      const d = decoration(i)
      let miss: string | undefined
      if (remaining <= 0) miss = BUDGET_FULL
      else {
        const known = counted.has(i) ? count(i) : undefined
        const b = (known ?? turn(i).content.length) + d > remaining ? (known ?? atLeast(i, remaining)) + d : 0
        if (b > remaining) miss = `needs ${known === undefined ? 'at least ' : ''}${b} tokens, ${remaining} left`
        else {
          counted.add(i)
          const cost = count(i) + d
          if (cost > remaining) miss = `needs ${cost} tokens, ${remaining} left`
          else remaining -= cost
        }
      }
      // the turns behind the first miss are left out too (see `exclusionsOf`)
      if (miss === undefined) taken.push(i)
      else return { taken, miss }
    }
    return { taken, miss: undefined }
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
  // 3. the layout: the previous document with a window's turns (a turn laid out before keeps its item)
  // the previous window is contiguous, newest last: its items by index, without an id each
  const shown = context.items
  const shownFrom = shown.length === 0 ? n : Number(HISTORY.exec(shown[0]!.packetId ?? '')?.[1] ?? Number.NaN)
  if (!(shown.length === 0 || shown[shown.length - 1]!.packetId === `history:${shownFrom + shown.length - 1}`)) return left('the previous window is not contiguous')
  const laidOut = (i: number): Item | undefined => (i >= shownFrom && i < shownFrom + shown.length ? shown[i - shownFrom] : i >= memo.length ? fresh.get(`history:${i}`) : undefined)
  const itemsOf = (window: ReadonlyArray<number>): ReadonlyArray<Item> | undefined => {
    const missing = window.filter((i) => laidOut(i) === undefined)
    const older = missing.length === 0 ? undefined : layOut(prev, context, meter, now, missing, turn, count)
    const items: Item[] = []
    for (const i of window) {
      const item = laidOut(i) ?? older?.get(`history:${i}`)
      if (item === undefined) return undefined
      items.push(item)
    }
    return items
  }
  const docOf = (items: ReadonlyArray<Item>): Document => ({ ...prev.doc, blocks: prev.doc.blocks.map((b) => (b === context ? { ...context, items } : b)) })
  const oldestFirst = (w: Window): ReadonlyArray<number> => [...w.taken].reverse()

  let final = first
  let firstLayout: RebuildMemo['first']
  const joins = new Map(memo.joins)
  if (estimate > available) {
    // layoutAware's second fill: a turn of the first layout costs its decoration joined with
    // its text, any other the widest turn decoration; the layout's own text is the first
    // layout's exact count less what its items cost (see src/select/layoutAware.ts)
    const t1 = oldestFirst(first)
    const items1 = itemsOf(t1)
    if (items1 === undefined) return left('a turn could not be laid out')
    const joinCount = meterCount(meter)
    let content = layout.alwaysContent
    let joinedTotal = layout.alwaysJoined
    for (const [k, i] of t1.entries()) {
      let j = joins.get(i)
      if (j === undefined) {
        const item = items1[k]!
        joins.set(i, (j = joinedCount(joinCount, tokenizer.name, item.prefix, item.text, item.tokens, `${item.suffix ?? ''}${context.separator}`) - item.tokens))
      }
      content += count(i)
      joinedTotal += j
    }
    const r1 = renderBlocks(docOf(items1).blocks, prev.doc.joiner)
    // the first layout's count from the previous first layout's, when that was measured
    const prevFirst = memo.first
    // the turns the previous first layout showed before this one's oldest (counted then)
    const dropped = new Map<string, number>()
    for (let i = prevFirst?.from ?? t1[0]!; i < t1[0]!; i++) dropped.set(turn(i).content, count(i))
    const knownCount = (c: string): number | undefined => dropped.get(c) ?? itemCount(prev.doc, items1, c)
    const tokens1 =
      (prevFirst === undefined ? undefined : exactCountChange({ tokenizer, before: prevFirst, after: r1, known: knownCount, count: joinCount })) ??
      spanCount(tokenizer, r1.text, r1.spans, knownCount, joinCount)
    firstLayout = { from: t1[0]!, text: r1.text, spans: r1.spans, tokens: tokens1 }
    const fixed = Math.max(0, tokens1 - content - joinedTotal)
    const inFirst = new Set(t1)
    final = fillWindow(available - fixed - alwaysTokens - layout.alwaysJoined, (i) => (inFirst.has(i) ? joins.get(i)! : widestTurn))
  }
  if (final.taken.length === 0) return left('no turn fits')
  const items = itemsOf(oldestFirst(final))
  if (items === undefined) return left('a turn could not be laid out')
  const doc = docOf(items)

  // 4. the exact count, from the previous one
  const rendered = textRenderer.render(doc)
  const spans = rendered.spans.get(rendered.output) ?? []
  const tokens = exactCountChange({
    tokenizer,
    before: { ...memo.output, tokens: prev.tokenCount },
    after: { text: rendered.output, spans },
    known: (content) => meter.counted(content) ?? knownCount(items, context.items, content),
    // the meter's memo: the text around the newest turn was counted for the first layout already
    count: meterCount(meter),
  })
  if (tokens === undefined) return left('the outputs share no turn with a word end to split at')
  if (tokens > available) return left('the output needs the compressor')

  // 5. the report
  const excludedFinal = exclusionsOf(final, reach, n)
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
    const x = i > missAt ? undefined : excludedFinal[missAt - i]!
    // literals, as in finish: a spread followed by more properties costs ~2 µs per object on Node 20
    reachReports.push(
      x === undefined
        ? { id, type: 'history', priority, source: 'history', tokens, scores, status: 'kept', section: 'context' }
        : { id, type: 'history', priority, source: 'history', tokens, scores, status: 'dropped', reason: x.reason, detail: x.detail! },
    )
  }
  const packets = [...prev.packets.slice(0, at), ...reachReports, ...prev.packets.slice(at + memo.length - memo.reach)]
  const excluded = [...historyRanges({ lead: memo.lead, windowStart, reach, start: reach, limit, budget, own: false }), ...excludedFinal]
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
  return E.right({ ...result, rebuild: nextMemo(memo, h, reach, counts, joins, firstLayout, { text: rendered.output, spans }, roleCost, lb) })
}

/** The scores a cold build gives a history packet (relevance is not judged for history). */
const scoresOf = (p: Packet, rec: (p: Packet) => number, comp: (r: number | undefined, c: number) => number) => {
  const c = rec(p)
  return { relevance: undefined, recency: c, composite: comp(undefined, c) }
}

/** The count of an item text among `items`, or the always-kept packets' items of `doc` (looked up when asked: a count asks a few). */
const itemCount = (doc: Document, items: ReadonlyArray<Item>, content: string): number | undefined => {
  for (const it of items) if (it.text === content) return it.tokens
  for (const sec of sectionsOf(doc)) if (sec.name !== 'context') for (const it of sec.items) if (it.packetId !== undefined && it.text === content) return it.tokens
  return undefined
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
  joins: ReadonlyMap<number, number>,
  first: RebuildMemo['first'],
  output: RebuildMemo['output'],
  roleCost: ReadonlyMap<string, number>,
  lb: (text: string) => number,
): RebuildMemo => {
  const from = Math.min(reach, reachOf(h, { budget: availableTokens(memo.key.config), lowerBound: lb }).from)
  const bounds = new Map<string, number>()
  for (let i = 0; i < memo.lead; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  for (let i = from; i < h.length; i++) bounds.set((h[i] as Turn).content, lb((h[i] as Turn).content))
  const kept = new Map<number, number>()
  for (const [i, c] of counts) if (i >= reach) kept.set(i, c)
  const joined = new Map<number, number>()
  for (const [i, j] of joins) if (i >= reach) joined.set(i, j)
  return {
    ...memo,
    length: h.length,
    from,
    reach,
    turns: [...h.slice(0, memo.lead), ...h.slice(from)],
    lowerBounds: bounds,
    counts: kept,
    joins: joined,
    first,
    output,
    layout: { ...memo.layout, roleCost },
  }
}

export { isPlainTurn }
