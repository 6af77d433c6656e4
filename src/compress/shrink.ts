/**
 * The unit-level steps of the fitting engine: a section's removal units (a tool call and its
 * results are one), cutting one item, and shrinking a section or a whole document by an
 * estimated number of tokens.
 *
 * @module
 */
import type { Document, Item, Section } from '../structure/document.js'
import { decorationOf, estimate, sectionsOf } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import { countedNote, cutCounted, cutText } from './cutText.js'
import { MIN_KEPT_TOKENS } from './policy.js'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * A section's units, in order of their first item: the items sharing a `group` (a tool call
 * and its results: the one tool-call unit, kept or dropped together even when other items
 * stand between them), every other item on its own.
 *
 * @category utils
 */
export const unitsOf = (s: Section): ReadonlyArray<ReadonlyArray<number>> => {
  const units: number[][] = []
  const byGroup = new Map<string, number[]>()
  s.items.forEach((item, i) => {
    if (item.group === undefined) {
      units.push([i])
      return
    }
    const unit = byGroup.get(item.group)
    if (unit !== undefined) unit.push(i)
    else {
      const fresh = [i]
      byGroup.set(item.group, fresh)
      units.push(fresh)
    }
  })
  return units
}

/** Whether a unit is pinned: any of its items is. */
export const isPinned = (s: Section, unit: ReadonlyArray<number>): boolean => unit.some((i) => s.items[i]!.pinned === true)

/**
 * A section's units in removal order: unpinned ones from the `dropFrom` end, then pinned ones
 * from the other end (the pinned turns that came first are kept longest).
 *
 * @category utils
 */
export const removalUnits = (s: Section): ReadonlyArray<ReadonlyArray<number>> => {
  const units = unitsOf(s)
  const ordered = s.dropFrom === 'start' ? units : [...units].reverse()
  return [...ordered.filter((u) => !isPinned(s, u)), ...[...ordered].reverse().filter((u) => isPinned(s, u))]
}

/**
 * Tokens a cut of the item adds besides the kept text: the section's marker on its own line,
 * or a counted marker (`Item.marker`) at its longest.
 *
 * @category utils
 */
export const markerCost = (item: Item, s: Section, m: Meter): number => {
  if (item.marker === undefined) return m.text(`\n${s.marker}`)
  const total = decorationOf(item, m) + (item.cut?.originalTokens ?? item.tokens)
  return m.text(`\n${countedNote(item.marker.label, total, total, item.marker.estimated)}`)
}

/**
 * The tokens of text an item keeps as it stands, as a cut counts them: a cut item its kept
 * text; a whole item its tokens less the marker a first cut adds. A cut to `keep` is a cut
 * only when `keep` is below this: a first cut adds its marker, so one that saves less than the
 * marker would make the item longer than whole (and past its per-file cap). The one place of
 * that rule (the fill's `cutTo` and its settle loop both ask it).
 */
export const keptOf = (item: Item, s: Section, m: Meter): number => item.cut?.keptTokens ?? item.tokens - markerCost(item, s, m)

/**
 * Cuts one item's text to `keep` tokens, marking the cut. Cutting an already cut item starts
 * again from its original text, so markers never pile up. An item with a counted marker is
 * cut by {@link cutCounted}: its decoration, kept text and marker are counted exactly and stay
 * within `keep` and what {@link markerCost} allowed for; `undefined` when fewer than `minKept`
 * tokens of it would stay.
 */
export const cutItem = (item: Item, keep: number, s: Section, m: Meter, minKept = 1): Item | undefined => {
  const original = item.cut?.original ?? item.text
  const originalTokens = item.cut?.originalTokens ?? item.tokens
  if (item.marker !== undefined) {
    const decoration = decorationOf(item, m)
    const limit = decoration + keep + markerCost(item, s, m)
    const cut = cutCounted(item.prefix, original, limit, item.marker, decoration + originalTokens, minKept, m.tokenizer)
    if (cut === undefined) return undefined
    // decoration + tokens is the exact count of the item as shown
    return { ...item, text: cut.text, tokens: cut.tokens - decoration, cut: { keptTokens: cut.keptTokens - decoration, originalTokens, original } }
  }
  const kept = cutText(original, keep, s.keep, m.tokenizer, originalTokens)
  const text = s.keep === 'head' ? `${kept}\n${s.marker}` : `${s.marker}\n${kept}`
  return {
    ...item,
    text,
    tokens: keep + m.text(`\n${s.marker}`),
    cut: { keptTokens: keep, originalTokens, original },
  }
}

/**
 * Removes at least `excess` estimated tokens from a section: whole units from its
 * `dropFrom` end while they are smaller than what is left to remove, then (if `allowCut`)
 * one cut inside the next item — unless that item is part of a tool-call group, or the cut
 * would keep fewer than {@link MIN_KEPT_TOKENS}, in which case it goes whole.
 *
 * @category utils
 */
export const shrinkSection = (s: Section, excess: number, m: Meter, allowCut: boolean): Section => {
  const separator = m.text(s.separator)
  const removed = new Set<number>()
  const cuts = new Map<number, Item>()
  let left = excess
  for (const unit of removalUnits(s)) {
    if (left <= 0) break
    const cost = unit.reduce((sum, i) => sum + decorationOf(s.items[i]!, m) + s.items[i]!.tokens + separator, 0)
    const only = unit.length === 1 ? s.items[unit[0]!]! : undefined
    // a first cut adds the marker; a re-cut already paid for it
    const content = only?.cut?.keptTokens ?? only?.tokens ?? 0
    const keep = content - left - (only !== undefined && only.cut === undefined ? markerCost(only, s, m) : 0)
    const cut = cost <= left || !allowCut || only === undefined || only.group !== undefined || keep < MIN_KEPT_TOKENS ? undefined : cutItem(only, Math.min(keep, content - 1), s, m, MIN_KEPT_TOKENS)
    if (cut === undefined) {
      unit.forEach((i) => removed.add(i))
      left -= cost
    } else {
      cuts.set(unit[0]!, cut)
      left = 0
    }
  }
  return { ...s, items: s.items.flatMap((item, i) => (removed.has(i) ? [] : [cuts.get(i) ?? item])) }
}

/**
 * Shrinks a document by `excess` estimated tokens, taking from the highest-ranked non-empty
 * section first and moving down the ranks. Used by the guard that makes every build fit.
 *
 * @category utils
 */
export const shrinkDocument = (doc: Document, excess: number, m: Meter, allowCut: boolean): Document => {
  let current = doc
  let left = excess
  const ranked = [...new Set(sectionsOf(current).map((s) => s.rank))].sort((a, b) => b - a)
  for (const rank of ranked) {
    for (const b of current.blocks) {
      if (left <= 0) return current
      // a guard, not a branch over kinds: only sections shrink
      if (b._tag !== 'Section' || b.rank !== rank || b.items.length === 0) continue
      const before = estimate(current, m)
      const next = shrinkSection(b, left, m, allowCut)
      current = { ...current, blocks: current.blocks.map((x) => (x === b ? next : x)) }
      left -= before - estimate(current, m)
    }
  }
  return current
}
