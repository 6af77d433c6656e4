/**
 * The memo a rebuilt result carries for the next build (`./memo.ts`): the same settings, the
 * turns it read, and what it knows of them, shared with the previous memo where unchanged.
 *
 * @module
 */
import { availableTokens } from '../config.js'
import type { RebuildMemo } from './memo.js'
import { nextTable, reachFrom, type BuildTable } from './table.js'

/** What this build learned, for {@link nextMemo}. */
export interface Learned {
  readonly reach: number
  /** The build's table: the memo's numbers and those it took. */
  readonly table: BuildTable
  readonly first: RebuildMemo['first']
  readonly output: RebuildMemo['output']
  readonly frame: RebuildMemo['frame']
  readonly roleCost: ReadonlyMap<string, number>
}

/**
 * The memo of the rebuilt result of history `h`.
 *
 * @category utils
 */
export const nextMemo = (memo: RebuildMemo, h: ReadonlyArray<unknown>, l: Learned): RebuildMemo => {
  const { reach, table } = l
  const budget = availableTokens(memo.key.config)
  // the request check's reach, from the table's bounds: it only moves on as turns are
  // appended, so it never walks before the table (if it did, the table's start reads more)
  const limit = memo.key.config.maxHistoryMessages
  const oldest = limit === Number.POSITIVE_INFINITY ? memo.lead : Math.max(memo.lead, h.length - limit)
  const from = Math.min(reach, reachFrom(table, memo.table.from, memo.lead, budget, oldest) ?? memo.table.from)
  return {
    ...memo,
    length: h.length,
    from,
    reach,
    turns: [...h.slice(0, memo.lead), ...h.slice(from)],
    table: nextTable(table, from, reach),
    first: l.first,
    output: l.output,
    frame: l.frame,
    // the previous table when no role was added (the same object)
    layout: l.roleCost.size === memo.layout.roleCost.size ? memo.layout : { ...memo.layout, roleCost: l.roleCost },
  }
}
