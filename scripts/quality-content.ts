/**
 * `npm run quality`: content-aware compression against plain truncation, on the real tool
 * outputs of the pi and Claude Code fixtures (`scripts/toolOutputs.ts`).
 *
 * For every output larger than a budget, both methods make it fit the same budget
 * (o200k_base); the report says, per kind, how many tokens each used, what share of what
 * matters survived (JSON key paths, error lines, declarations, headings: `scripts/survival.ts`),
 * how often the JSON stayed valid, and how many tokens each needs to keep *all* of it:
 * truncation needs the prefix up to the last of them; the compressor's need is found by
 * bisecting the budget. A third table measures the same outputs the way the pipeline and
 * `fitMessages` cut them: through the per-item cap (`capMessage`, on a tool result, no hint:
 * sniffed), against the head-and-tail cut the cap made of every kind but JSON before
 * (`cutMiddle`), at the same budget.
 *
 * Run: npm run quality [-- --json]
 */
import * as E from 'fp-ts/lib/Either.js'
import { compressContent, jsonTree, loadTypeScript, sniff, type ContentKind } from '../src/compress/content/index.js'
import { cutMiddle, cutText } from '../src/compress/cutText.js'
import { capMessage } from '../src/gather/itemCap.js'
import { message, messageText, toolResult } from '../src/message.js'
import { createTokenizer } from '../src/tokenize/tokenizer.js'
import { survivorsOf } from './survival.js'
import { toolOutputs } from './toolOutputs.js'

const BUDGETS = [250, 500, 1000, 2000] as const

interface Cell {
  n: number
  tokensContent: number
  tokensCut: number
  keptContent: number
  keptCut: number
  total: number
  validContent: number
  validCut: number
}

const cell = (): Cell => ({ n: 0, tokensContent: 0, tokensCut: 0, keptContent: 0, keptCut: 0, total: 0, validContent: 0, validCut: 0 })
const pct = (a: number, b: number): string => (b === 0 ? '—' : `${((100 * a) / b).toFixed(0)}%`)

export const main = async (): Promise<string> => {
  const tokenizer = E.getOrElseW((e: { readonly message: string }) => {
    throw new Error(e.message)
  })(createTokenizer('gpt-4o'))
  const outputs = await toolOutputs()
  const typescript = await loadTypeScript()
  const cells = new Map<string, Cell>()
  const capCells = new Map<string, Cell>()
  const need = new Map<ContentKind, { items: number; original: number; content: number; cut: number }>()
  const kinds = new Map<ContentKind, number>()
  for (const o of outputs) {
    const total = tokenizer.count(o.text)
    const sniffed = sniff(o.text, o.hint)
    kinds.set(sniffed.kind, (kinds.get(sniffed.kind) ?? 0) + 1)
    const survivors = survivorsOf(o.text, sniffed)
    if (survivors === undefined || survivors.items.length === 0 || total <= BUDGETS[0]) continue
    for (const budget of BUDGETS) {
      if (total <= budget) continue
      const key = `${sniffed.kind}@${budget}`
      const c = cells.get(key) ?? cell()
      cells.set(key, c)
      const content = compressContent(o.text, budget, tokenizer, o.hint, { totalTokens: total, typescript })
      const cut = cutText(o.text, budget, 'head', tokenizer, total)
      c.n++
      c.tokensContent += content.tokens
      c.tokensCut += tokenizer.count(cut)
      c.keptContent += survivors.keptIn(content.text)
      c.keptCut += survivors.keptIn(cut)
      c.total += survivors.items.length
      if (sniffed.kind === 'json') {
        c.validContent += jsonTree(content.text) === undefined ? 0 : 1
        c.validCut += jsonTree(cut) === undefined ? 0 : 1
      }
      // the pipeline's way: the per-item cap on a tool result, against head and tail
      const capped = capMessage(message('tool', [toolResult('c1', o.tool, o.text)]), budget, tokenizer)
      const middle = cutMiddle(o.text, budget, tokenizer)
      if (capped !== undefined && middle !== undefined) {
        const k = capCells.get(key) ?? cell()
        capCells.set(key, k)
        const text = messageText(capped.message)
        k.n++
        k.tokensContent += capped.keptTokens
        k.tokensCut += middle.tokens
        k.keptContent += survivors.keptIn(text)
        k.keptCut += survivors.keptIn(middle.text)
        k.total += survivors.items.length
        if (sniffed.kind === 'json') {
          k.validContent += jsonTree(text) === undefined ? 0 : 1
          k.validCut += jsonTree(middle.text) === undefined ? 0 : 1
        }
      }
    }
    // tokens needed to keep every survivor: truncation keeps a prefix; bisect the compressor's budget
    const all = survivors.items.length
    const cutNeed = tokenizer.count(o.text.slice(0, survivors.lastEnd))
    let lo = 1
    let hi = total
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (survivors.keptIn(compressContent(o.text, mid, tokenizer, o.hint, { totalTokens: total, typescript }).text) >= all) hi = mid
      else lo = mid + 1
    }
    const n = need.get(sniffed.kind) ?? { items: 0, original: 0, content: 0, cut: 0 }
    need.set(sniffed.kind, { items: n.items + 1, original: n.original + total, content: n.content + hi, cut: n.cut + cutNeed })
  }
  const lines: string[] = []
  lines.push(`Tool outputs: ${outputs.length} (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}); tokenizer o200k_base`)
  lines.push('')
  const table = (title: string, cs: ReadonlyMap<string, Cell>): void => {
    lines.push(title)
    lines.push('kind       budget  items  tokens used (content / cut)  survived (content / cut)  valid JSON (content / cut)')
    for (const [key, c] of [...cs].sort()) {
      const [kind, budget] = key.split('@')
      const valid = kind === 'json' ? `${pct(c.validContent, c.n)} / ${pct(c.validCut, c.n)}` : ''
      lines.push(
        `${kind!.padEnd(10)} ${budget!.padStart(6)}  ${String(c.n).padStart(5)}  ${`${Math.round(c.tokensContent / c.n)} / ${Math.round(c.tokensCut / c.n)}`.padStart(27)}  ${`${pct(c.keptContent, c.total)} / ${pct(c.keptCut, c.total)}`.padStart(24)}  ${valid}`,
      )
    }
  }
  table('Same budget, content-aware vs plain truncation (head cut):', cells)
  lines.push('')
  table('In the pipeline and fitMessages: the per-item cap (sniffed, no hint) vs head and tail (cutMiddle), same cap:', capCells)
  lines.push('')
  lines.push('Tokens needed to keep everything that matters (sum over items):')
  lines.push('kind       items  original  content-aware  truncation  saved vs truncation')
  for (const [kind, n] of [...need].sort()) {
    lines.push(
      `${kind.padEnd(10)} ${String(n.items).padStart(5)}  ${String(n.original).padStart(8)}  ${String(n.content).padStart(13)}  ${String(n.cut).padStart(10)}  ${`${n.cut - n.content} (${pct(n.cut - n.content, n.cut)})`.padStart(19)}`,
    )
  }
  return lines.join('\n')
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) {
  main().then(
    (report) => console.log(report),
    (e: unknown) => {
      console.error(e)
      process.exit(1)
    },
  )
}
