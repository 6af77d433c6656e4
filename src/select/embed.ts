/**
 * Semantic relevance: an embeddings function the caller passes in (`gather`'s `embed`
 * option), awaited once per build with one batch — the query and every candidate the
 * selector ranks — and the vectors it returns, carried with the gathered phase. The selector
 * then scores relevance as the cosine similarity to the query, and MMR measures similarity
 * between candidates with the same vectors.
 *
 * One batch, because an embeddings API is a network round trip: one per build, not one per
 * packet. Candidates are the packets the selector ranks on relevance (not P0, the task or
 * history), so a long conversation costs no embedding. Without `embed` nothing changes: the
 * offline default stays the keyword scorer.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describeThrown, inputError, show, type GsscError } from '../error.js'
import type { Packet } from '../packet.js'
import type { Gathered } from '../phase.js'
import type { Scorer } from './score.js'
// a cycle with the selector, for a function only called at build time: one rule for "always kept"
import { alwaysKept } from './selector.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An embeddings function: one vector per text, in order, all of one dimension. Any model
 * will do (an API, a local model, a hashing trick); gssc only compares the vectors.
 */
export type Embed = (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<ReadonlyArray<number>>>

/** The vectors of one build: the query's, and each embedded candidate's by packet id. */
export interface Vectors {
  readonly query: ReadonlyArray<number>
  readonly byId: ReadonlyMap<string, ReadonlyArray<number>>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Whether the selector ranks a packet on relevance, and so whether it is embedded: not P0,
 * the task, or history.
 *
 * @category utils
 * @since 0.2.0
 */
export const isRanked = (p: Packet): boolean => !alwaysKept(p) && p.type !== 'history'

/**
 * Embeds the query and the candidates in one call and returns the gathered phase with their
 * vectors. A rejected call, or an answer of the wrong shape (not one vector per text, not
 * finite numbers, vectors of different lengths), is an error naming `embed` and the text at
 * fault.
 *
 * @example
 * pipe(request, gather(gatherers), TE.chain(embedGathered(embed)), select(), structure(), compress())
 * @category constructors
 * @since 0.2.0
 */
export const embedGathered =
  (embed: Embed) =>
  (g: Gathered): TE.TaskEither<GsscError, Gathered> => {
    const candidates = g.packets.filter(isRanked)
    const texts = [g.request.query, ...candidates.map((p) => p.content)]
    const what = (i: number): string => (i === 0 ? 'the query' : `packet ${show(candidates[i - 1]!.id)}`)
    return pipe(
      // a synchronous throw of the caller's function is a failure of the build too
      TE.tryCatch(
        () => Promise.resolve().then(() => embed(texts)),
        (e) => inputError('embed', `the embeddings function failed: ${describeThrown(e)}`),
      ),
      TE.chainEitherK((vectors) => checkVectors(vectors, texts.length, what)),
      TE.map((vs) => ({ ...g, vectors: { query: vs[0]!, byId: new Map(candidates.map((p, i) => [p.id, vs[i + 1]!])) } })),
    )
  }

/**
 * Relevance as the cosine similarity of a packet's vector to the query's (negative values
 * count as 0). A packet that carries its own `relevance` (a retriever's rank) keeps it; one
 * without a vector is scored by `fallback` (the keyword scorer).
 *
 * @category constructors
 * @since 0.2.0
 */
export const semanticRelevance = (vectors: Vectors, fallback: Scorer): Scorer => {
  const q = unit(vectors.query)
  return (p) => {
    if (p.relevance !== undefined) return p.relevance
    const v = vectors.byId.get(p.id)
    return v === undefined ? fallback(p) : Math.max(0, dot(q, unit(v)))
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const dot = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/** The vector scaled to length 1 (a zero vector stays zero: similar to nothing). */
const unit = (v: ReadonlyArray<number>): ReadonlyArray<number> => {
  const n = Math.sqrt(dot(v, v))
  return n === 0 ? v : v.map((x) => x / n)
}

/**
 * Cosine similarity in [−1, 1]; 0 when either vector is zero.
 *
 * @example
 * cosine([1, 0], [1, 1]) // 0.7071…
 * @category utils
 * @since 0.2.0
 */
export const cosine = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  const n = Math.sqrt(dot(a, a) * dot(b, b))
  return n === 0 ? 0 : dot(a, b) / n
}

const checkVectors = (
  vectors: unknown,
  expected: number,
  what: (i: number) => string,
): E.Either<GsscError, ReadonlyArray<ReadonlyArray<number>>> => {
  if (!Array.isArray(vectors)) return E.left(inputError('embed', `must resolve to an array of vectors, one per text (got ${show(vectors)})`))
  if (vectors.length !== expected)
    return E.left(inputError('embed', `returned ${vectors.length} vector(s) for ${expected} text(s) (the query and ${expected - 1} packet(s))`))
  let dimensions: number | undefined
  for (let i = 0; i < vectors.length; i++) {
    const v: unknown = vectors[i]
    const at = `result[${i}] (${what(i)})`
    if (!Array.isArray(v) || v.length === 0) return E.left(inputError('embed', `${at}: must be a non-empty array of numbers (got ${show(v)})`))
    const bad = v.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x))
    if (bad >= 0) return E.left(inputError('embed', `${at}[${bad}]: must be a finite number (got ${show(v[bad])})`))
    if (dimensions !== undefined && v.length !== dimensions)
      return E.left(inputError('embed', `${at}: has ${v.length} dimensions, the query's vector has ${dimensions}`))
    dimensions ??= v.length
  }
  return E.right(vectors as ReadonlyArray<ReadonlyArray<number>>)
}
