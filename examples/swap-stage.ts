/**
 * Swapping a stage for your own function: every stage is a plain value in a `pipe`.
 * Here the selector is wrapped so a pinned packet is always kept, and the structurer is
 * replaced by a function that writes a compact chat-style layout.
 *
 * Run: npx tsx examples/swap-stage.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import {
  additional,
  compress,
  createTokenizer,
  gather,
  history,
  instructions,
  layoutAware,
  section,
  select,
  structure,
  task,
  truncate,
  labelsFor,
  type Selector,
  type Structurer,
} from 'gssc'
import { history as loadHistory, isMain, NOW, packets, system } from './load.js'

/** A structurer of our own: pinned facts, the chat, then the question. */
const chatLayout: Structurer = (s) => {
  const labels = labelsFor('en')
  const order = new Map(s.packets.map((p, i) => [p.id, i]))
  const pick = (keep: (type: string) => boolean, prefix: (role: string) => string) =>
    s.selected
      .filter((x) => keep(x.packet.type))
      .sort((a, b) => order.get(a.packet.id)! - order.get(b.packet.id)!)
      .map((x) => ({ packetId: x.packet.id, prefix: prefix(x.packet.message?.role ?? ''), text: x.packet.content, tokens: x.tokens }))
  return {
    joiner: '\n\n',
    blocks: [
      section({ name: 'facts', rank: 1, head: 'Facts:\n', items: pick((t) => t === 'evidence', () => '- '), channel: 'system' }, labels),
      section({ name: 'chat', rank: 2, head: '', items: pick((t) => t === 'history', (r) => `${r}> `), channel: 'turns', dropFrom: 'start', keep: 'tail' }, labels),
      section({ name: 'question', rank: 0, head: 'Q: ', items: pick((t) => t === 'task', () => ''), channel: 'user' }, labels),
    ],
  }
}

/** The default selection, except that packets pinned in their metadata are always kept. */
const keepPinned =
  (inner: Selector): Selector =>
  (g) => {
    const s = inner(g)
    const kept = new Set(s.selected.map((x) => x.packet.id))
    const pinned = g.packets.filter((p) => p.metadata['pinned'] === true && !kept.has(p.id))
    return {
      ...s,
      selected: [...s.selected, ...pinned.map((p) => ({ packet: p, tokens: g.env.meter.packet(p), scores: s.scores.get(p.id)! }))],
      excluded: s.excluded.filter((e) => !pinned.some((p) => p.id === e.id)),
    }
  }

export const main = async (): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  // "What now?" shares no keyword with the CI log, so relevance alone would drop it: pin it
  const pinned = packets().map((p) => (p.id === 'ci-log' ? { ...p, metadata: { pinned: true } } : p))
  const result = await pipe(
    { query: 'What now?', instructions: system(), history: loadHistory(), packets: pinned },
    gather([instructions(), task(), history(), additional()], { tokenizer: tokenizer.right, now: NOW, config: { maxTokens: 300 } }),
    select(keepPinned(layoutAware(chatLayout))),
    structure(chatLayout),
    compress(truncate()),
  )()
  if (E.isLeft(result)) throw new Error(result.left.message)
  const r = result.right
  return `${r.output}\n\n-- ${r.tokenCount} of ${r.budget.available} tokens; not in this layout: ${r.excluded.filter((e) => e.reason === 'not_in_layout').map((e) => e.id).join(', ')}`
}

if (isMain(import.meta.url)) console.log(await main())
