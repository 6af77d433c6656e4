/**
 * A history-fitting strategy (`truncateHistory`, `compressHistory`, `smartHistory`, or yours)
 * as a compressor of the pipeline.
 *
 * The conversation section gets whatever the rest of the layout leaves: the other sections
 * are measured exactly, and the strategy fits the turns into the remainder, each turn costing
 * what the renderer says it adds to the output (labels and separators in a text prompt, the
 * per-message overhead in a chat request), so there is nothing to re-fit. Kept turns stay the
 * pipeline's own items; a summary turn becomes a new, pinned item that records which packets
 * it covers, so the report says `summarized` for them. What BPE joins leave over is handled
 * by `then` (default `truncate()`) and the engine's exact guard, as always.
 *
 * Use it with a selector that lets all history through (`{ history: 'all' }`): a summarizing
 * strategy needs the older turns it summarizes. For the same reason the compressor says it
 * `summarizes` (unless told it does not: a truncating strategy), and `build` then reads every
 * history turn, not only those that can fit.
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { runCompressor, type Compressor, type Fit } from '../compress/compressor.js'
import type { GsscError } from '../error.js'
import { truncate } from '../compress/truncate.js'
import { message, messageText, type Role } from '../message.js'
import { sectionsOf, withSection, type Item } from '../structure/document.js'
import type { Document } from '../structure/document.js'
import type { FitStrategy, FittedHistory } from './fit/model.js'
import type { HistoryItem, HistoryKind } from './items.js'

/** Makes the strategy for a budget (in tokens, labels and separators included). */
export type StrategyFor = (budget: number) => FitStrategy

/**
 * @example
 * build(request, {
 *   selector: layoutAware(sectioned(), { history: 'all' }),
 *   compressor: historyCompressor((budget) => compressHistory({ budget, tokenizer, summarizer })),
 * })
 * @category constructors
 * @since 0.1.0
 */
export const historyCompressor = (strategy: StrategyFor, then: Compressor = truncate(), options: HistoryCompressorOptions = {}): Compressor =>
  Object.assign(fitHistory(strategy, then), { summarizes: options.summarizes ?? true })

/** Options of {@link historyCompressor}. */
export interface HistoryCompressorOptions {
  /**
   * The strategy folds the turns it leaves out into a summary (`compress`, `smart`), so the
   * build must read them all. Default `true`; say `false` for a truncating strategy, and a
   * build reads back only as far as turns can fit.
   */
  readonly summarizes?: boolean
}

const fitHistory =
  (strategy: StrategyFor, then: Compressor) =>
  (doc: Document, fit: Fit): Document | TE.TaskEither<GsscError, Document> => {
    const turns = sectionsOf(doc).find((s) => s.channel === 'turns' && s.items.length > 0)
    if (turns === undefined) return then(doc, fit)
    const { meter } = fit
    const others = fit.measure(withSection(doc, turns.name, (s) => ({ ...s, items: [] })))
    const budget = Math.max(0, fit.available - others - meter.text(turns.head) - meter.text(doc.joiner))
    const byId = new Map(turns.items.map((i, n) => [i.packetId ?? `item:${n}`, i]))
    // each turn costs what it adds to the output in the build's format (the renderer's cost)
    const items: ReadonlyArray<HistoryItem> = turns.items.map((i, n) => ({
      id: i.packetId ?? `item:${n}`,
      kind: 'message' as HistoryKind,
      message: i.message ?? message('user', i.text),
      tokens: fit.cost(i, turns),
      ...(i.group === undefined ? {} : { group: i.group }),
    }))
    const prefixFor = (role: Role): string => turns.items.find((i) => i.message?.role === role)?.prefix ?? `${role}: `
    const place = (fitted: FittedHistory): Document => {
      const covers = fitted.report.summarized
      const next = fitted.items.map((h): Item => {
        const kept = byId.get(h.id)
        if (kept !== undefined) return kept
        // a summary the strategy wrote: its count is of its text alone; it stays while turns go
        return { prefix: prefixFor(h.message.role), text: messageText(h.message), tokens: h.tokens, message: h.message, covers, pinned: true }
      })
      return withSection(doc, turns.name, (s) => ({ ...s, items: next }))
    }
    return pipe(
      strategy(budget)(items),
      TE.map(place),
      TE.chain((placed) => runCompressor(then, placed, fit)),
    )
  }
