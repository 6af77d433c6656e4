/**
 * The count of a layout whose history window moved, made from the previous window's count
 * piece by piece, is the layout's exact count (when it can be made: always for turns with
 * word ends), over random turns, windows, separators and the text around the window; its end
 * pieces are the new layout's (a changed end's tail piece only when asked for).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderBlocks, type Document, type Item, type Section } from '../../src/structure/document.js'
import { frameCounts, frameOf } from '../../src/rebuild/frame.js'
import { itemCount, measuredWindow, windowChange, type PieceEnv } from '../../src/rebuild/windowCount.js'
import { edgesOf } from '../../src/tokenize/wordEdges.js'
import { gpt4o } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

const WORDS = ['the', 'build', 'fails', 'because', 'rename', 'node', 'const x = 1;', '{"ok":true}', 'Why?', "it's", '构建', '失败。', '-', '42', '\n']
/** A turn with at least one word end: a word, then a break. */
const worded = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 20 }).map((ws) => `Now ${ws.join(' ')} done.`)

const section = (name: string, head: string, items: ReadonlyArray<Item>, separator: string, tail?: string): Section => ({
  _tag: 'Section',
  name,
  rank: 0,
  head,
  items,
  separator,
  dropFrom: 'start',
  keep: 'tail',
  channel: 'system',
  omitWhenEmpty: true,
  marker: '',
  ...(tail === undefined ? {} : { tail }),
})

/** A turn's item; its label starts a line (as the default layout's do) or, for `odd`, may not; some close with a suffix (a tag). */
const turnItem = (i: number, text: string, odd: string): Item => ({
  packetId: `history:${i}`,
  prefix: i % 3 === 2 ? odd : i % 2 === 0 ? 'user: ' : 'assistant: ',
  text,
  tokens: gpt4o.count(text),
  ...(i % 4 === 1 ? { suffix: ' </turn>' } : {}),
})

describe('rebuild: counting a moved window piece by piece', () => {
  it('gives the exact count of the new layout', () => {
    let made = 0
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 4, arbitrary: worded }, { weight: 1, arbitrary: joinStress(12) }), { minLength: 2, maxLength: 24 }),
        fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
        fc.constantFrom('\n', '\n\n', ' '),
        joinStress(10),
        fc.option(fc.constantFrom('\n\n[Output]\nAnswer in this format:\n1. Conclusion', '</context>', '\n  \n'), { nil: undefined }),
        fc.option(fc.constantFrom('\n', '\n---'), { nil: undefined }),
        fc.constantFrom('user: ', ' user: ', '/user ', '\n', ''),
        fc.boolean(),
        (texts, [a, b, c, d], separator, instructions, closing, tail, odd, tails) => {
          const n = texts.length
          const items = texts.map((t, i) => turnItem(i, t, odd))
          // the previous window [from0, to0) and the new one [from1, n), sharing a turn
          const to0 = 1 + (a % n)
          const from0 = b % to0
          const from1 = c % to0
          const context = section('context', '[Context]\nConversation history and background:\n', [], separator, tail)
          const doc = (window: ReadonlyArray<Item>): Document => ({
            blocks: [
              section('instructions', '[Role & Policies]\n', [{ packetId: 'instructions', prefix: '', text: instructions, tokens: gpt4o.count(instructions) }], '\n'),
              { ...context, items: window },
              ...(closing === undefined ? [] : [{ _tag: 'Literal' as const, text: closing }]),
            ],
            joiner: d % 2 === 0 ? '\n\n' : '\n',
          })
          const known = (content: string) => itemCount(doc([]), items, content)
          const rendered = (from: number, to: number) => renderBlocks(doc(items.slice(from, to)).blocks, doc([]).joiner)
          const before = rendered(from0, to0)
          const measured = measuredWindow(gpt4o, gpt4o.count, known, before, from0, to0, gpt4o.count(before.text))
          const previous = doc(items.slice(from0, to0))
          const f = frameOf(previous, previous.blocks[1] as Section, items[to0 - 1]!)
          const env: PieceEnv = {
            tokenizer: gpt4o,
            count: gpt4o.count,
            known,
            separator,
            // the word edges a build's meter finds (the composed new end reads them)
            found: (content) => edgesOf(gpt4o.count, content),
            item: (i) => items[i],
            frame: () => (f === undefined ? undefined : frameCounts(gpt4o, gpt4o.count, known, f)),
            tails,
          }
          const after = windowChange(env, measured, from1, n)
          const text = rendered(from1, n).text
          if (after !== undefined) {
            made++
            expect(after.tokens).toBe(gpt4o.count(text))
            // its end pieces are the new layout's, for the next change (a changed end's tail only when asked)
            const again = measuredWindow(gpt4o, gpt4o.count, known, rendered(from1, n), from1, n, after.tokens)
            expect([after.head, after.tail]).toEqual([again.head, tails || n === to0 ? again.tail : undefined])
          }
          // turns with word ends and labels that start a line (the default layout's): always made
          if (odd === 'user: ' && texts.every((t) => t.startsWith('Now '))) expect(after).toBeDefined()
        },
      ),
      seeded(300),
    )
    expect(made).toBeGreaterThan(100)
  })
})
