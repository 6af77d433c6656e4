/**
 * Reads a stored team9 memory state (JSON) into the chunk model, or says exactly what is
 * wrong: every error names the field by its path, e.g.
 * `state.chunks["chunk_7"].content.type: must be a string (got 3)`.
 *
 * Accepted shapes: `chunks` as an object keyed by id, an array, or a `Map` (an in-memory
 * state); `chunkIds` gives the order, and when it is absent the order of `chunks` is used.
 * Optional fields get team9's defaults: `retentionStrategy` COMPRESSIBLE, `mutable` false,
 * `priority` 0, `metadata.createdAt` 0.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { inputError, show, type InputError } from '../error.js'
import {
  CHUNK_TYPES,
  RETENTION_STRATEGIES,
  WORKING_FLOW_SUBTYPES,
  type ChunkBody,
  type ChunkContent,
  type ChunkImage,
  type ChunkMetadata,
  type ChunkText,
  type ChunkType,
  type MemoryChunk,
  type MemoryState,
  type RetentionStrategy,
  type WorkingFlowChild,
  type WorkingFlowSubType,
} from './model.js'

type Obj = Readonly<Record<string, unknown>>
export type Parsed<A> = E.Either<InputError, A>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map)
const fail = <A>(path: string, problem: string, value: unknown): Parsed<A> => E.left(inputError(path, `${problem} (got ${show(value)})`))

const object = (v: unknown, path: string): Parsed<Obj> => (isObj(v) ? E.right(v) : fail(path, 'must be an object', v))
/** Parses the fields of a value that must be an object. */
const fieldsOf = <A>(v: unknown, path: string, parse: (o: Obj) => Parsed<A>): Parsed<A> => pipe(object(v, path), E.chain(parse))
const string = (v: unknown, path: string): Parsed<string> => (typeof v === 'string' ? E.right(v) : fail(path, 'must be a string', v))
const nonEmpty = (v: unknown, path: string): Parsed<string> =>
  typeof v === 'string' && v.length > 0 ? E.right(v) : fail(path, 'must be a non-empty string', v)
const number = (v: unknown, path: string, fallback: number): Parsed<number> =>
  v === undefined ? E.right(fallback) : typeof v === 'number' && Number.isFinite(v) ? E.right(v) : fail(path, 'must be a finite number', v)
const oneOf = <A extends string>(values: ReadonlyArray<A>) => (v: unknown, path: string): Parsed<A> =>
  typeof v === 'string' && (values as ReadonlyArray<string>).includes(v) ? E.right(v as A) : fail(path, `must be one of ${values.join(', ')}`, v)
const optional = <A>(v: unknown, parse: (v: unknown) => Parsed<A>): Parsed<A | undefined> => (v === undefined ? E.right(undefined) : parse(v))

const chunkType = oneOf<ChunkType>(CHUNK_TYPES)
const subType = oneOf<WorkingFlowSubType>(WORKING_FLOW_SUBTYPES)
const retention = oneOf<RetentionStrategy>(RETENTION_STRATEGIES)

/** Parses each item, stopping at the first error. */
const each = <A>(items: ReadonlyArray<unknown>, parse: (v: unknown, i: number) => Parsed<A>): Parsed<ReadonlyArray<A>> => {
  const out: Array<A> = []
  for (let i = 0; i < items.length; i++) {
    const r = parse(items[i], i)
    if (E.isLeft(r)) return r
    out.push(r.right)
  }
  return E.right(out)
}

const without = (o: Obj, keys: ReadonlyArray<string>): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)))

const textBody = (o: Obj, path: string): Parsed<ChunkText> => E.map((text: string): ChunkText => ({ _tag: 'Text', text }))(string(o.text, `${path}.text`))

const imageBody = (o: Obj, path: string): Parsed<ChunkImage> =>
  pipe(
    E.Do,
    E.apS('data', nonEmpty(o.data, `${path}.data`)),
    E.apS('mimeType', string(o.mimeType, `${path}.mimeType`)),
    E.apS('altText', optional(o.altText, (v) => string(v, `${path}.altText`))),
    E.map(({ data, mimeType, altText }): ChunkImage => ({ _tag: 'Image', data, mimeType, ...(altText === undefined ? {} : { altText }) })),
  )

const mixedPart = (v: unknown, path: string): Parsed<ChunkText | ChunkImage> => {
  const o = object(v, path)
  if (E.isLeft(o)) return o
  return o.right.type === 'TEXT' ? textBody(o.right, path) : o.right.type === 'IMAGE' ? imageBody(o.right, path) : fail(`${path}.type`, 'must be TEXT or IMAGE', o.right.type)
}

/**
 * Parses stored chunk content: `{ type, ...fields }`.
 *
 * @category parsers
 * @since 0.1.0
 */
export const parseContent = (v: unknown, path: string): Parsed<ChunkContent> => {
  const o = object(v, path)
  if (E.isLeft(o)) return o
  const c = o.right
  const type = string(c.type, `${path}.type`)
  if (E.isLeft(type)) return type
  const withBody = (body: Parsed<ChunkBody>, keys: ReadonlyArray<string>): Parsed<ChunkContent> =>
    E.map((b: ChunkBody): ChunkContent => ({ type: type.right, body: b, fields: without(c, ['type', ...keys]) }))(body)
  switch (type.right) {
    case 'IMAGE':
      return withBody(imageBody(c, path), ['data', 'mimeType', 'altText'])
    case 'MIXED':
      return Array.isArray(c.parts)
        ? withBody(E.map((parts: ReadonlyArray<ChunkText | ChunkImage>): ChunkBody => ({ _tag: 'Mixed', parts }))(each(c.parts, (p, i) => mixedPart(p, `${path}.parts[${i}]`))), ['parts'])
        : fail(`${path}.parts`, 'must be an array', c.parts)
    case 'CHUNK_REF':
      return withBody(E.map((chunkId: string): ChunkBody => ({ _tag: 'ChunkRef', chunkId }))(nonEmpty(c.chunkId, `${path}.chunkId`)), ['chunkId'])
    default:
      // TEXT with text, or structured content (TEXT without text, or a type of its own)
      return c.text === undefined ? withBody(E.right({ _tag: 'Structured' }), []) : withBody(textBody(c, path), ['text'])
  }
}

const stringArray = (v: unknown, path: string): Parsed<ReadonlyArray<string>> =>
  Array.isArray(v) ? each(v, (x, i) => string(x, `${path}[${i}]`)) : fail(path, 'must be an array', v)

const metadata = (v: unknown, path: string): Parsed<ChunkMetadata> =>
  v === undefined
    ? E.right({ createdAt: 0 })
    : fieldsOf(v, path, (m) =>
        pipe(
          E.Do,
          E.apS('createdAt', number(m.createdAt, `${path}.createdAt`, 0)),
          E.apS('parentIds', optional(m.parentIds, (p) => stringArray(p, `${path}.parentIds`))),
          E.apS('custom', optional(m.custom, (c) => object(c, `${path}.custom`))),
          E.map(({ createdAt, parentIds, custom }): ChunkMetadata => ({
            createdAt,
            ...(parentIds === undefined ? {} : { parentIds }),
            ...(m.sourceOperation === undefined ? {} : { sourceOperation: m.sourceOperation }),
            ...(custom === undefined ? {} : { custom }),
          })),
        ),
      )

const child = (v: unknown, path: string): Parsed<WorkingFlowChild> =>
  fieldsOf(v, path, (c) =>
    pipe(
      E.Do,
      E.apS('id', nonEmpty(c.id, `${path}.id`)),
      E.apS('subType', subType(c.subType, `${path}.subType`)),
      E.apS('content', parseContent(c.content, `${path}.content`)),
      E.apS('createdAt', number(c.createdAt, `${path}.createdAt`, 0)),
      E.apS('custom', optional(c.custom, (x) => object(x, `${path}.custom`))),
      E.map(({ custom, ...rest }): WorkingFlowChild => ({ ...rest, ...(custom === undefined ? {} : { custom }) })),
    ),
  )

const children = (v: unknown, path: string): Parsed<ReadonlyArray<WorkingFlowChild>> =>
  Array.isArray(v) ? each(v, (y, i) => child(y, `${path}[${i}]`)) : fail(path, 'must be an array', v)

const mutable = (v: unknown, path: string): Parsed<boolean> =>
  v === undefined ? E.right(false) : typeof v === 'boolean' ? E.right(v) : fail(path, 'must be true or false', v)

/**
 * Parses one stored chunk; `path` names it in errors.
 *
 * @category parsers
 * @since 0.1.0
 */
export const parseChunk = (v: unknown, path: string): Parsed<MemoryChunk> =>
  fieldsOf(v, path, (c) =>
    pipe(
      E.Do,
      E.apS('id', nonEmpty(c.id, `${path}.id`)),
      E.apS('type', chunkType(c.type, `${path}.type`)),
      E.apS('subType', optional(c.subType, (s) => subType(s, `${path}.subType`))),
      E.apS('content', parseContent(c.content, `${path}.content`)),
      E.apS('children', optional(c.children, (x) => children(x, `${path}.children`))),
      E.apS('retentionStrategy', c.retentionStrategy === undefined ? E.right<InputError, RetentionStrategy>('COMPRESSIBLE') : retention(c.retentionStrategy, `${path}.retentionStrategy`)),
      E.apS('mutable', mutable(c.mutable, `${path}.mutable`)),
      E.apS('priority', number(c.priority, `${path}.priority`, 0)),
      E.apS('metadata', metadata(c.metadata, `${path}.metadata`)),
      E.map(({ subType: sub, children: kids, ...rest }): MemoryChunk => ({
        ...rest,
        ...(sub === undefined ? {} : { subType: sub }),
        ...(kids === undefined ? {} : { children: kids }),
      })),
    ),
  )

const chunkEntries = (chunks: unknown, path: string): Parsed<ReadonlyArray<readonly [string, unknown]>> =>
  chunks instanceof Map
    ? E.right([...(chunks as ReadonlyMap<unknown, unknown>).entries()].map(([k, v]) => [String(k), v] as const))
    : Array.isArray(chunks)
      ? E.right(chunks.map((c, i) => [isObj(c) && typeof c.id === 'string' ? c.id : `#${i}`, c] as const))
      : isObj(chunks)
        ? E.right(Object.entries(chunks))
        : fail(path, 'must be an object keyed by chunk id, an array or a Map', chunks)

/**
 * Parses a stored memory state.
 *
 * @example
 * parseMemoryState(JSON.parse(readFileSync('state.json', 'utf8')), 'state.json')
 * // Right({ chunkIds: [...], chunks: Map { ... } }), or
 * // Left(state.json.chunks["chunk_7"].type: must be one of SYSTEM, AGENT, … (got "AGNET"))
 * @category parsers
 * @since 0.1.0
 */
export const parseMemoryState = (json: unknown, input = 'state'): Parsed<MemoryState> => {
  const o = object(json, input)
  if (E.isLeft(o)) return o
  const entries = chunkEntries(o.right.chunks, `${input}.chunks`)
  if (E.isLeft(entries)) return entries
  const chunks = new Map<string, MemoryChunk>()
  for (const [key, raw] of entries.right) {
    const path = `${input}.chunks[${JSON.stringify(key)}]`
    const chunk = parseChunk(raw, path)
    if (E.isLeft(chunk)) return chunk
    if (chunks.has(chunk.right.id)) return fail(`${path}.id`, 'is used by another chunk', chunk.right.id)
    if (!Array.isArray(o.right.chunks) && key !== chunk.right.id) return fail(`${path}.id`, `must equal its key "${key}"`, chunk.right.id)
    chunks.set(chunk.right.id, chunk.right)
  }
  const rawIds = o.right.chunkIds
  if (rawIds === undefined) return E.right({ chunkIds: [...chunks.keys()], chunks })
  if (!Array.isArray(rawIds)) return fail(`${input}.chunkIds`, 'must be an array of chunk ids', rawIds)
  const seen = new Set<string>()
  for (let i = 0; i < rawIds.length; i++) {
    const path = `${input}.chunkIds[${i}]`
    const id: unknown = rawIds[i]
    if (typeof id !== 'string') return fail(path, 'must be a string', id)
    if (!chunks.has(id)) return fail(path, `names no chunk in ${input}.chunks`, id)
    if (seen.has(id)) return fail(path, 'repeats an earlier id', id)
    seen.add(id)
  }
  return E.right({ chunkIds: rawIds as ReadonlyArray<string>, chunks })
}
