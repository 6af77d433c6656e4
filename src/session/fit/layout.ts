/**
 * A history as a one-section layout for the fitting engine, and back: how the session
 * strategies state their policy and fit through the one engine instead of a loop of their
 * own.
 *
 * Each history item becomes a layout item with no decoration whose cost is the item's
 * `tokens`; a tool call and the results that answer it (`./units.ts`) share a `group`, so
 * the engine keeps or drops them together; system units are pinned when `pinSystem` is on;
 * `keepRecentCount` is the section's item limit. The engine's measure is the sum of the kept
 * items' tokens: the strategies' own definition of a history's cost.
 *
 * @module
 */
import { fitDocument } from '../../compress/engine.js'
import type { FitPolicy } from '../../compress/policy.js'
import { estimate, sectionsOf, turnsSection, type Document, type Item } from '../../structure/document.js'
import { meter } from '../../tokenize/meter.js'
import { estimateTokenizer } from '../../tokenize/tokenizer.js'
import type { HistoryItem } from '../items.js'
import type { Exclusion } from '../../phase.js'
import type { DropReason } from './model.js'
import { idsOf, unitsOf, type Unit } from './units.js'

/** What a strategy asks of the engine for one history. */
export interface HistoryFit {
  readonly budget: number
  readonly policy: FitPolicy
  readonly pinSystem?: boolean
  readonly keepRecentCount?: number
  /** Fill preference per unit (lower is kept first); default all equal. */
  readonly preference?: (unit: Unit) => number
  /** Units left out of the fit altogether (smart history without `fillWithRecent`). */
  readonly exclude?: (unit: Unit) => boolean
  /** `user`: the kept units must open with a user turn (see `FitOptions.firstTurn`). */
  readonly firstTurn?: 'user' | 'any'
  /** The unit starting at this item is pinned: the user turn that opens the window (see `planHistory`). */
  readonly anchor?: number
}

/** A unit left out, and why. */
export interface DroppedUnit {
  readonly unit: Unit
  readonly reason: DropReason
}

/**
 * Dropped units as the report's exclusions: one per item of each unit.
 *
 * @category utils
 */
export const droppedItems = (items: ReadonlyArray<HistoryItem>, dropped: ReadonlyArray<DroppedUnit>): ReadonlyArray<Exclusion<DropReason>> =>
  dropped.flatMap(({ unit, reason }) => idsOf(items, [unit]).map((id) => ({ id, reason })))

/** The engine's answer for a history: kept units, and every other unit with its reason. */
export interface HistoryPlan {
  readonly units: ReadonlyArray<Unit>
  readonly kept: ReadonlyArray<Unit>
  readonly dropped: ReadonlyArray<DroppedUnit>
  /** Unpinned units not kept, oldest first, and why: what a summary would cover. */
  readonly older: ReadonlyArray<DroppedUnit>
}

// a history layout has no decoration: this meter is only ever asked to count ''
const noText = meter(estimateTokenizer())

/**
 * Fits a history through the engine.
 *
 * @category utils
 */
export const planHistory = (items: ReadonlyArray<HistoryItem>, fit: HistoryFit): HistoryPlan => {
  const units = unitsOf(items)
  const pinSystem = fit.pinSystem ?? true
  const orphans = units.filter((u) => u.orphan)
  const candidates = units.filter((u) => !u.orphan && !(fit.exclude?.(u) ?? false))
  const unitOf = new Map<string, Unit>()
  const layoutItems: Item[] = candidates.flatMap((u, n) =>
    items.slice(u.start, u.end).map((h): Item => {
      unitOf.set(h.id, u)
      return {
        packetId: h.id,
        prefix: '',
        text: '',
        tokens: h.tokens,
        message: h.message,
        group: `unit:${n}`,
        ...((pinSystem && u.system) || u.start === fit.anchor ? { pinned: true } : {}),
        ...(fit.preference === undefined ? {} : { priority: fit.preference(u) }),
      }
    }),
  )
  const limit = fit.keepRecentCount
  const section = turnsSection(layoutItems, limit === undefined || limit === Number.POSITIVE_INFINITY ? undefined : { items: limit, reason: 'keep_recent_count' })
  const doc: Document = { blocks: [section], joiner: '' }
  const fitted = fitDocument(doc, fit.policy, { available: fit.budget, meter: noText, measure: (d) => estimate(d, noText), cost: (i) => i.tokens })
  const keptIds = new Set(sectionsOf(fitted.doc).flatMap((s) => s.items.map((i) => i.packetId!)))
  const fitKept = candidates.filter((u) => keptIds.has(items[u.start]!.id))
  // Anthropic: the turns must open on a user turn, so an assistant turn cannot lead
  const opening = fit.firstTurn === 'user' ? fitKept.findIndex((u) => !u.system && items[u.start]!.message.role === 'user') : 0
  // a tool loop's user turns after the first are all tool results, which cannot lead either: when
  // no kept unit opens on a user turn, the newest user turn that could is kept as the opening,
  // and the budget filled after it (once: the anchor opens the window)
  if (opening < 0 && fit.anchor === undefined) {
    const anchor = candidates.findLast((u) => !u.system && items[u.start]!.message.role === 'user' && !keptIds.has(items[u.start]!.id))
    if (anchor !== undefined && items.slice(anchor.start, anchor.end).reduce((n, h) => n + h.tokens, 0) <= fit.budget) return planHistory(items, { ...fit, anchor: anchor.start })
  }
  const leading = new Set(fitKept.filter((u, k) => !u.system && (opening < 0 || k < opening)))
  const kept = fitKept.filter((u) => !leading.has(u))
  // the limit explains what it removed only when it, not the budget, ended the window
  const limitBound = fitted.limited.size > 0 && candidates.every((u) => keptIds.has(items[u.start]!.id) || fitted.limited.has(items[u.start]!.id) || u.system)
  const reasonOf = (u: Unit): DropReason =>
    leading.has(u) ? 'opens_with_assistant' : limitBound && fitted.limited.has(items[u.start]!.id) ? 'keep_recent_count' : 'over_budget'
  const lost = candidates.filter((u) => !keptIds.has(items[u.start]!.id) || leading.has(u))
  return {
    units,
    kept,
    dropped: [...orphans.map((unit) => ({ unit, reason: 'orphan_result' as const })), ...lost.filter((u) => pinSystem && u.system).map((unit) => ({ unit, reason: reasonOf(unit) }))],
    older: lost.filter((u) => !(pinSystem && u.system)).map((unit) => ({ unit, reason: reasonOf(unit) })),
  }
}
