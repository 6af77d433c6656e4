/**
 * What a text build keeps for the next build of the same conversation (`BuildResult.rebuild`),
 * so that a build after one more turn costs only that turn (`./append.ts`).
 *
 * It is plain data the caller passes back in (as `previous`), never a hidden cache: the turns
 * the build read (to see that they are unchanged), their exact counts and the history walk's bounds, and
 * what the layout adds around them. It is made only when the next build can be done by
 * appending: the default text build (sectioned layout, default selector and compressor) of a
 * history of plain `{ role, content: string }` turns, with no other packets, where nothing was
 * cut, failed or warned about. Otherwise the next build is cold, and says why.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { availableTokens, type Config } from '../config.js'
import { capEnd, itemCapOf } from '../gather/itemCap.js'
import { countedBound } from '../gather/walkBound.js'
import { isRecord } from '../messageProblem.js'
import type { Request } from '../phase.js'
import type { Role } from '../message.js'
import { labelsFor } from '../structure/labels.js'
import type { BuildResult } from '../report.js'
import { unchangedTextPrefix, type PrefixReport } from '../report/prefix.js'
import { reachOf } from '../request.js'
import { renderBlocks, sectionsOf } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { LayoutCosts } from './costs.js'
import { notPlain } from './plain.js'
import { sumsOf, type TurnTable } from './table.js'
import { frameCounts, frameOf, type FrameCounts } from './frame.js'
import { itemCount, measuredWindow, type WindowCount } from './windowCount.js'

/** How a build used `previous`: appended to it (only the new turns cost), or built cold, and why. */
export type RebuildOutcome =
  | { readonly mode: 'incremental'; readonly newTurns: number }
  | { readonly mode: 'cold'; readonly fallback: string }

/** The settings and the request apart from its history: a rebuild needs them unchanged. */
export interface RebuildKey {
  readonly config: Config
  /** `options.config` as given: the same object is the same config, without comparing. */
  readonly given: unknown
  /** The build's tokenizer, or `default` (o200k_base). */
  readonly tokenizer: Tokenizer | 'default'
  readonly now: number
  readonly query: string
  readonly instructions: Request['instructions']
}

/**
 * The data of a build that the next build of the same request with more turns appended
 * reuses: pass the whole result as `previous`. See `docs/caching.md`.
 */
export interface RebuildMemo {
  readonly key: RebuildKey
  /**
   * The per-item cap of the key's config (`itemCapOf`), or undefined: every rebuild checks
   * the new turns against it, and deriving it again is one more module's code to fetch in a
   * rebuild that runs cache-cold (see `./append.ts`).
   */
  readonly cap: number | undefined
  /** Turns in the history. */
  readonly length: number
  /** Its leading system turns. */
  readonly lead: number
  /** Their bounds in the history gatherer's walk, one more per turn (where the walk starts). */
  readonly leadBound: number
  /** The first turn the build read after the leading ones (the request check's reach). */
  readonly from: number
  /** The first turn made into a packet. */
  readonly reach: number
  /** The turns read: `history[0, lead)`, then `history[from, length)`. */
  readonly turns: ReadonlyArray<unknown>
  /** What the build knows of each turn of `history[from, length)`: the walk's bounds, lengths, exact counts from `reach` on where taken, joins. */
  readonly table: TurnTable
  /** The output's window and exact count, split at the window's ends. */
  readonly output: WindowCount
  /** Where the report's entry of turn `reach` is among its packets. */
  readonly reportAt: number
  /** The lengths of the output's text before its window's first turn and after its last, when the layout's text around the window could be split off. */
  readonly chars: { readonly opening: number; readonly closing: number } | undefined
  /** The counts of the layout's text around the window, when it could be split off. */
  readonly frame: FrameCounts | undefined
  /**
   * The prefix report of every rebuild from this memo, and the one it was made from (this
   * build's): a rebuild changes only the context section, so while it comes after the stable
   * blocks, a rebuilt output's prefix is the same blocks' (undefined when it does not).
   */
  readonly prefix: { readonly from: PrefixReport; readonly report: PrefixReport } | undefined
  readonly layout: LayoutCosts
}

/** A history turn's packet id. */
export const HISTORY = /^history:(\d+)$/

/** The first turn made into a packet, from the report: the oldest history packet that is not P0. */
const reachStart = (result: BuildResult<string>): number | undefined => {
  let min: number | undefined
  for (const p of result.packets) {
    const m = p.priority === 0 ? null : HISTORY.exec(p.id)
    if (m) min = Math.min(min ?? Number.POSITIVE_INFINITY, Number(m[1]))
  }
  return min
}

/** What the next build needs, or why the next build cannot append to this one. */
export const memoOf = (
  request: Request,
  key: RebuildKey,
  result: BuildResult<string>,
  walked: Meter,
  costs: LayoutCosts | undefined,
): E.Either<string, RebuildMemo> => {
  const { tokenizer } = walked
  const history = request.history
  if (!Array.isArray(history)) return E.left('the request has no history')
  if ((request.packets ?? []).length > 0 || (request.media ?? []).length > 0) return E.left('the request has packets or media besides its history')
  if (result.truncated.length > 0 || result.failures.length > 0 || result.warnings.length > 0) return E.left('the previous build cut, failed or warned')
  if (!result.excluded.every((x) => x.id.startsWith('history:'))) return E.left('the previous build left out packets other than turns')
  if (costs === undefined || !costs.roleCost.size) return E.left('the previous output shows no turn')
  let lead = 0
  while (lead < history.length && isRecord(history[lead]) && history[lead].role === 'system') lead++
  const reach = reachStart(result)
  if (reach === undefined || lead === history.length) return E.left('the previous build kept no turn')
  // the walk's bounds as the build took them: from its meter, which counted every turn it walked
  const lb = (text: string): number => countedBound(walked, text)
  const cap = itemCapOf(key.config)
  const walk = { budget: availableTokens(key.config), lowerBound: lb, window: key.config.maxHistoryMessages }
  const from = Math.min(reach, reachOf(history, cap === undefined ? walk : { ...walk, cut: (text: string) => capEnd(text, cap, tokenizer) !== undefined }).from)
  const turns = [...history.slice(0, lead), ...history.slice(from)]
  const bad = notPlain(turns, 0, cap, tokenizer)
  if (bad !== undefined) return E.left(bad)
  const content = (i: number): string => (history[i] as { readonly content: string }).content
  let leadBound = 0
  for (let i = 0; i < lead; i++) leadBound += lb(content(i)) + 1
  const size = history.length - from
  const bounds: number[] = []
  const lengths: number[] = []
  const costOf: number[] = []
  for (let i = from; i < history.length; i++) {
    bounds.push(lb(content(i)))
    lengths.push(content(i).length)
    costOf.push(costs.roleCost.get((history[i] as { readonly role: string }).role) ?? Number.NaN)
  }
  // the counts the build took: every turn its walk read (the meter counted them), and the
  // report's `counted` flags: the turns whose count it shows (its fill counted them)
  const counts: number[] = new Array<number>(size).fill(Number.NaN)
  const counted: number[] = new Array<number>(size).fill(0)
  for (let i = from; i < history.length; i++) counts[i - from] = walked.counted(content(i)) ?? Number.NaN
  for (const p of result.packets) {
    const m = p.tokens === undefined || p.priority === 0 ? null : HISTORY.exec(p.id)
    if (m && Number(m[1]) >= from) {
      counts[Number(m[1]) - from] = p.tokens!
      counted[Number(m[1]) - from] = 1
    }
  }
  const reportAt = result.packets.findIndex((p) => p.id === `history:${reach}`)
  // each turn's label and separator joined with its text, where the fill measured it (the
  // meter keeps how each text was joined last: its role's label and the separator, checked)
  const speaker = labelsFor(key.config.locale).speaker
  const joins: number[] = new Array<number>(size).fill(Number.NaN)
  for (let i = reach; i < history.length; i++) {
    const text = content(i)
    const j = walked.joined(text)
    const e = walked.found(text)
    if (j !== undefined && e !== undefined && j.before === speaker((history[i] as { readonly role: Role }).role) && j.after === '\n') joins[i - from] = j.opening + j.closing - e.head - e.tail
  }
  // the output's count split at its window's ends, for the next build to change
  const known = (content: string) => itemCount(result.doc, [], content)
  const context = sectionsOf(result.doc).find((s) => s.name === 'context')
  const shown = context?.items
  const shownFrom = Number(HISTORY.exec(shown?.[0]?.packetId ?? '')?.[1] ?? Number.NaN)
  if (context === undefined || shown === undefined || Number.isNaN(shownFrom)) return E.left('the previous output shows no turn')
  const output = measuredWindow(tokenizer, tokenizer.count, known, renderBlocks(result.doc.blocks, result.doc.joiner), shownFrom, history.length, result.tokenCount)
  const f = frameOf(result.doc, context, shown[shown.length - 1]!)
  const frame = f === undefined ? undefined : frameCounts(tokenizer, tokenizer.count, known, f)
  const chars = f === undefined ? undefined : { opening: f.opening.length, closing: f.closing.length }
  const table = { from, bounds, lengths, counts, joins, costs: costOf, counted, sums: sumsOf({ bounds, counts, joins }) }
  // what unchangedTextPrefix gives a rebuild, found as it finds it: with the context section
  // another object, the report is undefined when that section is among the stable blocks
  const moved = { ...result.doc, blocks: result.doc.blocks.map((b) => (b === context ? { ...context } : b)) }
  const stable = unchangedTextPrefix(result.prefix, result.doc, moved, result.prefix)
  const prefix = stable === undefined ? undefined : { from: result.prefix, report: stable }
  return E.right({ key, cap, length: history.length, lead, leadBound, from, reach, turns, table, output, reportAt, chars, frame, prefix, layout: costs })
}
