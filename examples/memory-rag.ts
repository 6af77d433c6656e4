/**
 * Memory and RAG gatherers over real search: an Orama full-text index of the shipped
 * knowledge base (examples/data/kb.json), tokenized with gssc's own keyword extractor so
 * Chinese queries work, and a memory store scored by gssc's relevance scorer.
 *
 * Run: npx tsx examples/memory-rag.ts
 */
import { create, insertMultiple, search } from '@orama/orama'
import * as E from 'fp-ts/lib/Either.js'
import { build, createTokenizer, keywordExtractor, packet, relevance, type MemorySearch, type Retrieve } from 'gssc'
import { history, isMain, kb, memories, NOW, packets, system } from './load.js'

/** An Orama index of the knowledge base. */
export const knowledgeBase = () => {
  const keywords = keywordExtractor()
  const db = create({
    schema: { id: 'string', title: 'string', body: 'string' } as const,
    components: { tokenizer: { language: 'english', normalizationCache: new Map(), tokenize: (raw: string) => [...keywords(raw)] } },
  })
  insertMultiple(db, kb())
  return db
}

/** Retrieval: BM25 hits, passed on with their title as the source and their score. */
export const retrieve =
  (db: ReturnType<typeof knowledgeBase>): Retrieve =>
  async (query, topK) => {
    const found = await search(db, { term: query, properties: ['title', 'body'], limit: topK })
    return found.hits.map((h) => ({ id: h.document.id, content: h.document.body, source: h.document.title, score: h.score }))
  }

/** Memory: the stored facts about the user that share keywords with the query. */
export const recall: MemorySearch = async (query, limit) => {
  const score = relevance(query)
  return memories()
    .map((m) => ({ ...m, score: score(packet({ type: m.kind, content: m.content }, NOW)) ?? 0 }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}

export const main = async (query = 'Why does the CI build fail with a missing compile script?'): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  const result = await build(
    { query, instructions: system(), history: history(), packets: packets() },
    {
      tokenizer: tokenizer.right,
      now: NOW,
      config: { maxTokens: 1200 },
      // BM25 scores are on Orama's own scale: hits under 1.7 share no more than a common word with the query here
      rag: { retrieve: retrieve(knowledgeBase()), topK: 5, minScore: 1.7 },
      memory: { search: recall, limit: 3 },
    },
  )()
  if (E.isLeft(result)) throw new Error(result.left.message)
  const r = result.right
  const dropped = r.excluded.map((e) => `  ${e.id}: ${e.reason}${e.detail === undefined ? '' : ` (${e.detail})`}`)
  return `${r.output}\n\n-- ${r.tokenCount} of ${r.budget.available} tokens\n-- dropped:\n${dropped.join('\n')}`
}

if (isMain(import.meta.url)) console.log(await main(process.argv[2]))
