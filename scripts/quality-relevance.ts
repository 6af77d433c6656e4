/**
 * `npm run quality:relevance`: retrieval quality of the selector's relevance on a small
 * labeled set (`scripts/relevanceSet.ts`: 30 runbook passages, 20 questions with one answer
 * each), keyword overlap (the offline default) against embeddings (issue 14 §6).
 *
 * Each question is built with the whole corpus as evidence; the passages are ranked by the
 * relevance the build reports (ties in corpus order, as the selector orders them), and the
 * answer's rank gives hits@1, hits@3 and the mean reciprocal rank. The embeddings are the
 * examples' deterministic stand-in (hashed character trigrams, `examples/semantic.ts`), not a
 * model: they see spelling, not meaning. For reference, the same questions through Orama's
 * own full-text (BM25) and vector search over the same vectors.
 *
 * Run: npm run quality:relevance [-- --json]
 */
import { create, insertMultiple, search } from '@orama/orama'
import * as E from 'fp-ts/lib/Either.js'
import { embed, embedText } from '../examples/semantic.js'
import { build, createTokenizer, type Embed } from '../src/index.js'
import { PASSAGES, QUESTIONS, type Question } from './relevanceSet.js'

/** Figures of one scorer over a group of questions. */
export interface Score {
  readonly scorer: string
  readonly questions: 'all' | Question['kind']
  readonly n: number
  readonly hitsAt1: number
  readonly hitsAt3: number
  readonly mrr: number
}

type Ranker = (q: Question) => Promise<ReadonlyArray<string>>

const NOW = Date.parse('2026-01-01T12:00:00Z')

/** The passage ids in the order of the relevance a gssc build reports. */
const gsscRanker = (semantic: Embed | undefined): Ranker => {
  const tokenizer = E.getOrElseW((e: { readonly message: string }) => {
    throw new Error(e.message)
  })(createTokenizer('gpt-4o'))
  return async (q) => {
    const packets = PASSAGES.map((p) => ({ id: p.id, type: 'evidence' as const, content: p.text }))
    const r = await build({ query: q.query, packets }, { tokenizer, now: NOW, config: { maxTokens: 100_000, minRelevance: 0 }, ...(semantic === undefined ? {} : { embed: semantic }) })()
    if (E.isLeft(r)) throw new Error(r.left.message)
    const relevance = new Map(r.right.packets.map((p) => [p.id, p.scores?.relevance ?? 0]))
    return PASSAGES.map((p, i) => [p.id, relevance.get(p.id)!, i] as const)
      .sort((a, b) => b[1] - a[1] || a[2] - b[2])
      .map(([id]) => id)
  }
}

/** Orama over the corpus: full text (BM25) or vectors (the same stand-in embeddings). */
const oramaRanker = async (mode: 'fulltext' | 'vector'): Promise<Ranker> => {
  const db = create({ schema: { id: 'string', text: 'string', embedding: 'vector[256]' } as const })
  await insertMultiple(db, PASSAGES.map((p) => ({ ...p, embedding: embedText(p.text) })))
  return async (q) => {
    const found =
      mode === 'fulltext'
        ? await search(db, { term: q.query, limit: PASSAGES.length })
        : await search(db, { mode: 'vector', vector: { value: embedText(q.query), property: 'embedding' }, similarity: 0, limit: PASSAGES.length })
    return found.hits.map((h) => h.document.id)
  }
}

const figures = async (scorer: string, rank: Ranker): Promise<ReadonlyArray<Score>> => {
  const ranks = await Promise.all(
    QUESTIONS.map(async (q) => {
      const at = (await rank(q)).indexOf(q.answer)
      return { kind: q.kind, rank: at < 0 ? Number.POSITIVE_INFINITY : at + 1 }
    }),
  )
  return (['all', 'same', 'variant', 'synonym'] as const).map((questions) => {
    const rs = ranks.filter((r) => questions === 'all' || r.kind === questions)
    const share = (f: (r: number) => number) => rs.reduce((s, r) => s + f(r.rank), 0) / rs.length
    return { scorer, questions, n: rs.length, hitsAt1: share((r) => (r <= 1 ? 1 : 0)), hitsAt3: share((r) => (r <= 3 ? 1 : 0)), mrr: share((r) => 1 / r) }
  })
}

/** Every scorer's figures. */
export const measure = async (): Promise<ReadonlyArray<Score>> => [
  ...(await figures('gssc keywords (default)', gsscRanker(undefined))),
  ...(await figures('gssc embeddings (embed)', gsscRanker(embed))),
  ...(await figures('Orama BM25 (reference)', await oramaRanker('fulltext'))),
  ...(await figures('Orama vector (reference)', await oramaRanker('vector'))),
]

const table = (scores: ReadonlyArray<Score>): string => {
  const pct = (x: number) => `${Math.round(x * 100)}%`
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(' | ')} |`
  const head = ['scorer', 'questions', 'hits@1', 'hits@3', 'MRR']
  return [
    line(head),
    line(head.map(() => '---')),
    ...scores.map((s) => line([s.scorer, `${s.questions} (${s.n})`, pct(s.hitsAt1), pct(s.hitsAt3), s.mrr.toFixed(2)])),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scores = await measure()
  console.log(
    process.argv.includes('--json')
      ? JSON.stringify(scores, null, 2)
      : `Relevance on ${PASSAGES.length} passages, ${QUESTIONS.length} labeled questions (same: the passage's words; variant: other forms of them; synonym: other words)\n\n${table(scores)}`,
  )
}
