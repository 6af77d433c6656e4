/**
 * `npm run demo`: builds contexts from the shipped example data and shows what was kept,
 * what was cut or dropped, and why.
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, createTokenizer, type BuildResult } from '../src/index.js'
import { history, isMain, NOW, packets, system } from './load.js'
import { knowledgeBase, recall, retrieve } from './memory-rag.js'

const rule = (title: string): string => `\n${'='.repeat(8)} ${title} ${'='.repeat(Math.max(0, 70 - title.length))}\n`

const report = (r: BuildResult<unknown>): string => {
  const rows = r.packets.map(
    (p) =>
      `  ${p.status.padEnd(9)} ${p.id.padEnd(22).slice(0, 22)} ${p.type.padEnd(12)} ${String(p.tokens ?? '-').padStart(5)} tok` +
      `  rel ${p.scores?.relevance === undefined ? '  - ' : p.scores.relevance.toFixed(2)}${p.reason === undefined ? '' : `  ${p.reason}${p.detail === undefined ? '' : `: ${p.detail}`}`}`,
  )
  const sections = r.sections.map((s) => `${s.name} ${s.tokens}`).join(', ')
  return [
    `tokens: ${r.tokenCount} of ${r.budget.available} available (max ${r.budget.maxTokens}, ${r.budget.reserved} reserved for the answer)${r.tokenCountExact ? '' : ' (approximate)'}`,
    `sections: ${sections}`,
    'packets:',
    ...rows,
    ...r.warnings.map((w) => `warning: ${w.message}`),
  ].join('\n')
}

export const main = async (): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  const out: string[] = []
  const query = 'Why does the CI build fail with a missing compile script, and what should I run?'
  const rich = await build(
    { query, instructions: system(), history: history(), packets: packets() },
    { tokenizer: tokenizer.right, now: NOW, config: { maxTokens: 1200 }, rag: { retrieve: retrieve(knowledgeBase()), topK: 6 }, memory: { search: recall, limit: 3 } },
  )()
  if (E.isLeft(rich)) throw new Error(rich.left.message)
  out.push(rule('1. memory + RAG (Orama) + history, 1200-token budget'), rich.right.output, rule('report'), report(rich.right))

  const tight = await build(
    { query, instructions: system(), history: history(), packets: packets() },
    { tokenizer: tokenizer.right, now: NOW, config: { maxTokens: 260, locale: 'zh' }, rag: { retrieve: retrieve(knowledgeBase()), topK: 6 } },
  )()
  if (E.isLeft(tight)) throw new Error(tight.left.message)
  out.push(rule('2. the same request in 260 tokens, Chinese labels'), tight.right.output, rule('report'), report(tight.right))
  return out.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
