/**
 * Content-aware compression: a JSON tool result and a build log made to fit 120 tokens each,
 * knowing what they are. Run: npx tsx examples/compression.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { compressContent, createTokenizer, loadEncoding } from 'gssc'
import { isMain } from './load.js'

export const main = async (): Promise<string> => {
  await loadEncoding('o200k_base') // counts synchronously anywhere once loaded
  const tokenizer = E.getOrElseW(() => {
    throw new Error('unknown model')
  })(createTokenizer('gpt-4o'))

  // a search tool's answer: 200 hits
  const hits = Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Result ${i}`, score: 1 - i / 200 }))
  const json = compressContent(JSON.stringify({ query: 'retry policy', hits }), 120, tokenizer, {
    contentType: 'application/json',
  })

  // a build log: 400 progress lines, one error, the outcome
  const log = [
    '$ npm run build',
    ...Array.from({ length: 400 }, (_, i) => `compiled src/module${i}.ts in ${i % 17} ms`),
    'src/app.ts(12,5): error TS2304: Cannot find name "retry".',
    'Build failed.',
  ].join('\n')
  const built = compressContent(log, 120, tokenizer)

  return [json, built]
    .map((r) => (r._tag === 'Compressed' ? `${r.kind}: ${r.originalTokens} -> ${r.tokens} tokens\n${r.text}` : r._tag))
    .join('\n\n')
}

if (isMain(import.meta.url)) console.log(await main())
