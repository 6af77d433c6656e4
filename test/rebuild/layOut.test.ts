/**
 * The rebuild's layouts (`src/rebuild/layOut.ts`): the previous document with another window
 * of turns, a turn shown before keeping its item, a new one laid out as a cold build lays it
 * out.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { build, type BuildResult, type Request } from '../../src/index.js'
import type { Appendable } from '../../src/rebuild/append.js'
import { docOf, frameCountsOf, itemAt, itemsOf, layouts, shownItem, shownWindow } from '../../src/rebuild/layOut.js'
import { buildTable } from '../../src/rebuild/table.js'
import type { Section } from '../../src/structure/document.js'
import { meter } from '../../src/tokenize/meter.js'
import { gpt4o, MINUTE, NOW } from '../helpers.js'

const history = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i}: the compile script was renamed, rerun it`, timestamp: NOW - (30 - i) * MINUTE }))
const request: Request = { query: 'Why?', history }
const grown = [...history, { role: 'user', content: 'And which node version do the tests need?', timestamp: NOW }]
const options = { tokenizer: gpt4o, now: NOW, config: { maxTokens: 400, locale: 'zh' as const }, rebuildable: true }

const built = async (r: Request): Promise<BuildResult> => {
  const b = await build(r, options)()
  if (E.isLeft(b)) throw new Error(b.left.message)
  return b.right
}
const contextOf = (r: BuildResult): Section => r.doc.blocks.find((b): b is Section => b._tag === 'Section' && b.name === 'context')!

describe('rebuild layouts', () => {
  it("keep the previous window's items and lay a new turn out as a cold build does", async () => {
    const prev = (await built(request)) as Appendable
    const context = contextOf(prev)
    const shown = shownWindow(context, prev.rebuild.output.from, prev.rebuild.output.to)!
    expect(shown.to).toBe(30)
    expect(shown.from).toBe(Number(context.items[0]!.packetId!.slice('history:'.length)))
    expect(shownItem(shown, shown.from)).toBe(context.items[0])
    expect(shownItem(shown, shown.from - 1)).toBeUndefined()
    expect(shownItem(shown, 30)).toBeUndefined()

    const table = buildTable(prev.rebuild.table, 30, grown, meter(gpt4o), prev.rebuild.layout.roleCost)
    const l = layouts(prev, context, shown, table)
    // a turn shown before: its item, the same object
    expect(itemAt(l, 29)).toBe(context.items[context.items.length - 1])
    // the new turn: the item a cold build of the grown history gives it (its zh label too)
    const cold = contextOf(await built({ ...request, history: grown }))
    const fresh = itemAt(l, 30)
    expect(fresh).toEqual(cold.items[cold.items.length - 1])
    expect(fresh.prefix).not.toBe('user: ')
    // made once per build
    expect(itemAt(l, 30)).toBe(fresh)

    const items = itemsOf(l, shown.from + 1, 31)
    expect(items.slice(0, -1)).toEqual(context.items.slice(1))
    expect(items[0]).toBe(context.items[1])
    expect(items[items.length - 1]).toBe(fresh)
    // the previous document with the context section showing them; the other blocks as they were
    const doc = docOf(l, items)
    const i = prev.doc.blocks.indexOf(context)
    expect((doc.blocks[i] as Section).items).toBe(items)
    expect(doc.blocks.filter((_, k) => k !== i)).toEqual(prev.doc.blocks.filter((_, k) => k !== i))
    expect(doc.blocks[0]).toBe(prev.doc.blocks[0])
    // the text around the window: the previous build's counts
    expect(frameCountsOf(l)).toBe(prev.rebuild.frame)
  })

  it('see no previous window when it is not the memo’s output window, contiguous', async () => {
    const prev = (await built(request)) as Appendable
    const context = contextOf(prev)
    const { from, to } = prev.rebuild.output
    expect(shownWindow(context, from, to)).toBeDefined()
    expect(shownWindow({ ...context, items: [context.items[0]!, context.items[2]!] }, from, from + 2)).toBeUndefined()
    expect(shownWindow({ ...context, items: [] }, from, from)).toBeUndefined()
    expect(shownWindow(context, from + 1, to + 1)).toBeUndefined()
    expect(shownWindow(context, from, to - 1)).toBeUndefined()
  })
})
