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
 * 4. the exact count: the previous output's count, less the pieces of the turns that left its
 *    window and of its two ends, plus those of the turns that joined it and of this output's
 *    ends (`./windowCount.ts`): pieces split at word ends, where counts add up, so only the
 *    changed text is tokenized;
 * 5. the report, with the turns that left or joined it (`./report.ts`); the memo for the next
 *    build unless this one is asked `rebuildable: false` (`./next.ts`).
 *
 * When a step cannot be taken this way (the output would need the compressor, a turn shows a
 * role the layout has not measured, no word end to split at) it says why, and the caller
 * builds cold.
 *
 * How the rebuild's code is written. It runs right after other work (in the bench, a cold
 * build) has evicted its code and data from the CPU's caches, and too few times for V8 to
 * optimize it (`npm run bench` times 25 rebuilds after 50): it runs as V8's baseline code,
 * several bytes of machine code for each byte of bytecode, fetched from memory line by line,
 * so what it costs is mostly the code it runs and the memory it reads and makes. Measured on
 * the bench's rebuild: about 30 µs when its code was run just before, two to three times that
 * after a cold build. A loop over the window's turns (a hundred in the bench) is where it
 * shows most: a builtin (`slice`, `concat`) does in a microsecond what a loop of baseline code
 * does in four. Hence:
 *
 * - no closure in a function on its path: V8 keeps every local a closure reads in a context
 *   object, and each read of one in the whole function becomes a context load and a check.
 *   The few closures it needs are made by small functions of their own (`piecesOf`, the
 *   binary searches' predicates);
 * - numbers in arrays, NaN where not known; what a rebuild seldom needs (maps of the counts
 *   it takes for older turns, lower bounds) is made when first needed;
 * - what the previous build already made is taken as it is (report entries, exclusions, ids,
 *   the output's text around the window), and a search starts where the previous one ended.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { availableTokens } from '../config.js'
import { textRenderer } from '../output.js'
import type { Request } from '../phase.js'
import type { BuildResult } from '../report.js'
import { outputPrefix, unchangedTextPrefix, type PrefixFingerprint, type PrefixReport } from '../report/prefix.js'
import { renderBlocks, type Document, type Section } from '../structure/document.js'
import type { Meter, MeterStats } from '../tokenize/meter.js'
import { composedCount, spanCount } from '../compress/outputCount.js'
import { fillWindow } from './fill.js'
import { decorationCost, docOf, frameCountsOf, itemAt, itemsOf, layouts, shownItem, shownWindow, type Layouts, type Shown, type Turn } from './layOut.js'
import type { RebuildMemo } from './memo.js'
import { notAppended } from './plain.js'
import { joinAt } from './join.js'
import { nextMemo } from './next.js'
import { rendering, spliced, type Spliced } from './splice.js'
import { buildTable, roleCostOf, setCost, takeCount, type BuildTable } from './table.js'
import { walkReach } from './walk.js'
import { reportOf } from './report.js'
import { itemCount, measuredWindow, windowChange, type PieceEnv, type WindowCount } from './windowCount.js'

/** A previous build that can be appended to. */
export type Appendable = BuildResult<string> & { readonly rebuild: RebuildMemo }

/** What the rebuild works with: the build's meter, the previous build's prefix for `prefix.identical`, and whether to carry a memo on. */
export interface AppendEnv {
  readonly meter: Meter
  readonly previous: PrefixFingerprint
  /** The build is rebuildable (asked, or by default as one given a previous): its result carries the memo for the next one. */
  readonly rebuildable: boolean
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
  if (!Array.isArray(h)) return left('the history is shorter than before')
  const why = notAppended(memo, h, tokenizer)
  if (why !== undefined) return left(why)

  const n = h.length
  const turns = h as ReadonlyArray<Turn>
  const { layout } = memo
  // the memo's numbers of each turn, then the new turns'
  const table = buildTable(memo.table, memo.length, turns, meter, layout.roleCost)

  // 1. the history gatherer's walk: the first turn made into a packet
  const budget = availableTokens(config)
  const limit = Math.max(0, config.maxHistoryMessages)
  const windowStart = limit === Number.POSITIVE_INFINITY ? memo.lead : Math.max(memo.lead, n - limit)
  const reach = walkReach(table, memo.leadBound, budget, windowStart, memo.reach, env.rebuildable)
  if (reach < memo.reach) return left('the history reaches further back than before')

  // 2. the layouts: the previous document with a window's turns (a turn laid out before keeps its item)
  const context = contextOf(prev.doc)
  if (context === undefined) return left('the previous layout has no context section')
  const shown = shownWindow(context, memo.output.from, memo.output.to)
  if (shown === undefined) return left('the previous window is not contiguous')
  const laid = layouts(prev, context, shown, table)
  // the new turns' decorations, for a role the layout has not shown yet measured
  for (let i = memo.length; i < n; i++) {
    const role = turns[i]!.role
    if (!table.roleCost.has(role)) table.roleCost = new Map([...table.roleCost, [role, decorationCost(meter, context)(itemAt(laid, i))]])
    setCost(table, i, table.roleCost.get(role)!)
  }

  // 3. layoutAware's fill (src/select/layoutAware.ts): after the layout without its turns
  // (the memo's `base`), each turn its count and its label and separator joined with its text,
  // and the newest also the context section's opening, which it measures on the layout of
  // that turn alone (tries first where the previous build's fill stopped)
  const opening = openingOf(laid, n - 1, layout.base)
  const final = fillWindow(laid, reach, budget - layout.base - opening, memo.output.from)
  if (final.from === n) return left('no turn fits')

  // the layouts' exact counts: from the previous ones, piece by piece, else over their text
  const pieces = piecesOf(laid, env.rebuildable)
  const items = itemsOf(laid, final.from, n)
  const doc = docOf(laid, items)

  // 4. the output and its exact count, from the previous one: its text cut from the previous
  // output where the window starts inside the previous one, else rendered (the text renderer's
  // render, without its map from the output to its spans: keying a map by the whole output hashes all of it)
  const r: Spliced = spliced(laid, final.from, n) ?? rendering(doc)
  const output = counted(pieces, laid, memo.output, final.from, n, doc)
  const tokens = output.tokens
  if (tokens > budget) return left('the output needs the compressor')

  // 5. the report
  const report = reportOf(laid, config, now, { n, windowStart, reach, limit, budget, final })
  if (report === undefined) return left('the previous report lists no turn')
  const sources = [r.ids]
  const contextTokens = estimateChange(table, shown, memo.output, final.from)
  const sections = prev.sections.slice()
  for (let k = 0; k < sections.length; k++) {
    const x = sections[k]!
    if (x.name === 'context') sections[k] = { ...x, tokens: x.tokens + contextTokens, packetIds: r.windowIds }
  }
  const result: BuildResult<string> = {
    output: r.text,
    sources,
    format: textRenderer.format,
    tokenCount: tokens,
    tokenCountExact: tokenizer.exact,
    budget: { ...prev.budget, used: tokens },
    included: r.ids,
    excluded: report.excluded,
    truncated: [],
    sections,
    packets: report.packets,
    failures: [],
    warnings: [],
    doc,
    // the previous prefix when its blocks are unchanged (the history after the volatile task, as laid out by default):
    // the memo's when the previous one is what it was made from, or made by it
    prefix:
      (memo.prefix !== undefined && env.previous === prev.prefix && (prev.prefix === memo.prefix.from || prev.prefix === memo.prefix.report) ? memo.prefix.report : undefined) ??
      unchangedTextPrefix(prev.prefix, prev.doc, doc, env.previous) ??
      textPrefix(doc, r.text, sources, meter, env.previous),
    stats: statsOf(meter.stats(), n - memo.length),
  }
  if (!env.rebuildable) return E.right(result)
  return E.right({ ...result, rebuild: nextMemo(memo, h, { reach, table, output, frame: frameCountsOf(laid), roleCost: table.roleCost }) })
}

/** The previous document's context section. */
const contextOf = (doc: Document): Section | undefined => {
  const { blocks } = doc
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!
    if (b._tag === 'Section' && b.name === 'context') return b
  }
  return undefined
}

/**
 * The build's stats: its meter's, and that it was incremental. A literal: a spread followed
 * by a property the spread object has not (`{ ...meter.stats(), rebuild }`) took 4-5 µs here.
 */
const statsOf = (s: MeterStats, newTurns: number): BuildResult<string>['stats'] => ({
  tokenizerCalls: s.tokenizerCalls,
  charsTokenized: s.charsTokenized,
  cacheHits: s.cacheHits,
  rebuild: { mode: 'incremental', newTurns },
})

/**
 * The window counter's view of the layouts `l` (`tails`: whether a changed end's tail piece
 * is counted, for the next build). Its methods are made here, so that `appendRebuild` makes
 * no closure (see the module comment).
 */
const piecesOf = (l: Layouts, tails: boolean): PieceEnv => {
  const { meter } = l.table
  return {
    tokenizer: meter.tokenizer,
    count: meter.once,
    known(content) {
      return meter.counted(content) ?? itemCount(l.prev.doc, [], content)
    },
    separator: l.context.separator,
    found: meter.found,
    item(i) {
      return itemAt(l, i)
    },
    frame() {
      return frameCountsOf(l)
    },
    tails,
  }
}

/**
 * The exact count of the layout showing the window `[from, n)`: from the previous layout's
 * count `before` piece by piece (`windowChange`), else over its text ({@link measured}).
 */
const counted = (pieces: PieceEnv, laid: Layouts, before: WindowCount | undefined, from: number, n: number, doc: Document | undefined): WindowCount =>
  (before === undefined ? undefined : windowChange(pieces, before, from, n)) ?? measured(laid, from, n, doc)

/** The exact count of the layout showing the window `[from, n)`, over its text: the document `doc`, or the window laid out in the previous document. */
const measured = (laid: Layouts, from: number, n: number, doc: Document | undefined): WindowCount => {
  const { meter } = laid.table
  const { tokenizer } = meter
  const items = itemsOf(laid, from, n)
  const d = doc ?? docOf(laid, items)
  const r = renderBlocks(d.blocks, laid.prev.doc.joiner)
  const known = (content: string): number | undefined => meter.counted(content) ?? itemCount(laid.prev.doc, items, content)
  return measuredWindow(tokenizer, meter.once, known, r, from, n, spanCount(tokenizer, r.text, r.spans, known, meter.once))
}

/**
 * The context section's opening as layoutAware's probe measures it with turn `i` (the newest,
 * the first its fill charges): the exact count of the layout showing that turn alone, less
 * the layout without turns (`base`), the turn's count and its join.
 *
 * From the layout's text around the window (its frame, whose counts the memo keeps) without
 * laying anything out: that count is the frame's opening, the turn's label with its first
 * word, its middle, its last word with the frame's closing up to its first line start, and
 * the rest of the closing (counts add up at word ends and line starts:
 * `compress/outputCount.ts`), so all but its last word's pieces cancel. Measured on the
 * layout itself when the frame's opening does not end a line or the turn has no word end.
 */
const openingOf = (laid: Layouts, i: number, base: number): number => {
  const f = frameCountsOf(laid)
  const { meter } = laid.table
  const item = itemAt(laid, i)
  const e = f === undefined || f.opening === undefined ? undefined : meter.edges(item.text)
  if (e === undefined) return openingMeasured(laid, i, base)
  const tail = item.text.slice(e.last)
  const suffix = item.suffix ?? ''
  return f!.opening! + f!.closingRest - base + meter.once(`${tail}${suffix}${f!.closingLead}`) - meter.once(`${tail}${suffix}${laid.context.separator}`)
}

/** {@link openingOf}, measured on the layout showing turn `i` alone. */
const openingMeasured = (laid: Layouts, i: number, base: number): number => {
  const { meter } = laid.table
  const items = itemsOf(laid, i, i + 1)
  const d = docOf(laid, items)
  const r = renderBlocks(d.blocks, laid.prev.doc.joiner)
  const known = (content: string): number | undefined => meter.counted(content) ?? itemCount(laid.prev.doc, items, content)
  return composedCount(meter.tokenizer, r.text, r.spans, known, meter.once) - base - takeCount(laid.table, i) - joinAt(laid, i)
}

/** The prefix report of the text `output` of `doc` made whole (`outputPrefix`), when the previous one's cannot be kept. */
const textPrefix = (doc: Document, output: string, sources: ReadonlyArray<ReadonlyArray<string>>, meter: Meter, previous: PrefixFingerprint): PrefixReport =>
  outputPrefix(
    doc,
    textRenderer,
    { output, sources, spans: new Map() },
    { counter: { count: meter.text }, text: { count: (text, s) => spanCount(meter.tokenizer, text, s, meter.counted) } },
    previous,
  )

/**
 * The context section's estimate (`estimateSection`: a turn adds its count, label and
 * separator, its role's cost) from the previous one's: the turns that joined less those
 * that left, for a window from `from` on.
 */
const estimateChange = (table: BuildTable, shown: Shown, before: WindowCount, from: number): number => {
  const { n } = table
  let d = 0
  for (let i = Math.max(from, shown.to); i < n; i++) d += roleCostOf(table, i) + takeCount(table, i)
  for (let i = from; i < shown.from; i++) d += roleCostOf(table, i) + takeCount(table, i)
  for (let i = before.from; i < Math.min(from, before.to); i++) d -= roleCostOf(table, i) + shownItem(shown, i)!.tokens
  return d
}
