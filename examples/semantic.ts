/**
 * Semantic relevance with a real retriever: Orama's hybrid search (BM25 + vectors) over a
 * small runbook feeds gssc's `rag` gatherer, and the same embeddings score the team's notes
 * (where keyword overlap finds too little: "certificate" is not "certs") and drive MMR. The embeddings are a deterministic stand-in (hashed character trigrams): no
 * model, no download; pass your model's function instead. Run: npx tsx examples/semantic.ts
 */
import { create, insertMultiple, search } from '@orama/orama'
import * as E from 'fp-ts/lib/Either.js'
import { build, type Embed, type PacketInput, type Retrieve } from 'gssc'
import { isMain } from './load.js'

const DIMENSIONS = 256

/** Hashed character trigrams of the lowercased text, as a unit vector: similar spellings, similar vectors. */
export const embedText = (text: string): number[] => {
  const v = new Array<number>(DIMENSIONS).fill(0)
  const s = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `
  for (let i = 0; i + 3 <= s.length; i++) {
    let h = 0x811c9dc5 // FNV-1a
    for (let j = i; j < i + 3; j++) h = Math.imul(h ^ s.charCodeAt(j), 0x01000193)
    v[(h >>> 0) % DIMENSIONS]! += 1
  }
  const norm = Math.hypot(...v) || 1
  return v.map((x) => x / norm)
}

/** The embeddings function gssc awaits once per build: one batch, one vector per text. */
export const embed: Embed = async (texts) => texts.map(embedText)

const RUNBOOK = [
  { id: 'cert', text: 'Rotating the TLS certificate: upload the new chain to the load balancer before the old certificate expires.' },
  { id: 'dns', text: 'DNS changes take up to 48 hours to propagate; lower the TTL a day before moving the domain.' },
  { id: 'cache', text: 'Clearing the build cache: delete node_modules/.cache and the CI cache key, then rerun the pipeline.' },
  { id: 'oauth', text: 'Authentication tokens expire after one hour; the client refreshes them with the refresh token.' },
  { id: 'timeout', text: 'Gateway timeouts (HTTP 504) mean the upstream service took longer than 30 seconds to answer.' },
  { id: 'backup', text: 'Nightly backups of the primary database are kept for 30 days; restoring one takes twenty minutes.' },
]

const NOTES: PacketInput[] = [
  { id: 'note:expiry', type: 'evidence', content: 'Our certs expire on the 1st; the staging chain was swapped last month.' },
  { id: 'note:deploy', type: 'evidence', content: 'Deploys are frozen from the 20th to the 2nd.' },
  { id: 'note:lunch', type: 'evidence', content: 'Team lunch moved to Thursday.' },
]

export const main = async (): Promise<string> => {
  const db = create({ schema: { id: 'string', text: 'string', embedding: `vector[${DIMENSIONS}]` } as const })
  await insertMultiple(db, RUNBOOK.map((doc) => ({ ...doc, embedding: embedText(doc.text) })))
  const retrieve: Retrieve = async (query, topK) => {
    const found = await search(db, { mode: 'hybrid', term: query, vector: { value: embedText(query), property: 'embedding' }, similarity: 0.1, limit: topK })
    return found.hits.map((hit) => ({ id: hit.document.id, content: hit.document.text, source: `runbook/${hit.document.id}`, score: hit.score }))
  }
  const request = { query: 'Certificate renewal: which chain goes on the balancer?', instructions: 'Answer from the runbook and the notes.', packets: NOTES }
  const lines: string[] = []
  for (const [name, semantic] of [['keywords', undefined], ['embeddings', embed]] as const) {
    const r = await build(request, {
      rag: { retrieve, topK: 2 },
      config: { maxTokens: 400, enableMMR: true, mmrLambda: 0.5 },
      ...(semantic === undefined ? {} : { embed: semantic }),
    })()
    if (E.isLeft(r)) throw new Error(r.left.message)
    lines.push(`${name}:`)
    for (const p of r.right.packets.filter((x) => x.type === 'evidence'))
      lines.push(`  ${p.id.padEnd(18)} relevance ${(p.scores?.relevance ?? 0).toFixed(2)}  ${p.status}${p.reason === undefined ? '' : ` (${p.reason})`}`)
  }
  return lines.join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
