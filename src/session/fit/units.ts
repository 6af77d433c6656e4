/**
 * Atomic units of a history: what a strategy keeps or drops as a whole. An assistant turn
 * with tool calls and the results that answer them form one unit (providers reject a call
 * without its result and a result without its call); items sharing a `group` stay
 * together; everything else is a unit of its own.
 *
 * @module
 */
import { toolUnitOf } from '../../toolUnits.js'
import type { HistoryItem } from '../items.js'

/** Items `[start, end)` of a history, kept or dropped together. */
export interface Unit {
  readonly start: number
  readonly end: number
  readonly tokens: number
  /** A tool result with no call before it: never sent (only possible in unrepaired input). */
  readonly orphan: boolean
  /** A system turn: pinned by default. */
  readonly system: boolean
}

/**
 * Splits a history into units, in order. Linear.
 *
 * @category utils
 */
export const unitsOf = (items: ReadonlyArray<HistoryItem>): ReadonlyArray<Unit> => {
  const units: Unit[] = []
  // the one tool-call unit: results join the turn that made their calls
  const owner = toolUnitOf(items.map((i) => i.message))
  let i = 0
  while (i < items.length) {
    const first = items[i]!
    let end = i + 1
    let tokens = first.tokens
    while (end < items.length) {
      const next = items[end]!
      const sameGroup = first.group !== undefined && next.group === first.group
      if (!sameGroup && !(owner[i] === i && owner[end] === i && next.message.role === 'tool')) break
      tokens += next.tokens
      end++
    }
    units.push({ start: i, end, tokens, orphan: first.message.role === 'tool', system: first.message.role === 'system' && end === i + 1 })
    i = end
  }
  return units
}

/** Items of some units, in history order. */
export const itemsOf = (items: ReadonlyArray<HistoryItem>, units: ReadonlyArray<Unit>): ReadonlyArray<HistoryItem> =>
  [...units].sort((a, b) => a.start - b.start).flatMap((u) => items.slice(u.start, u.end))

/** Ids of some units' items. */
export const idsOf = (items: ReadonlyArray<HistoryItem>, units: ReadonlyArray<Unit>): ReadonlyArray<string> => itemsOf(items, units).map((i) => i.id)
