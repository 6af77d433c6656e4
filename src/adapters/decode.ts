/**
 * The adapters' reading kit: fields of untrusted objects read as `Either` values whose error
 * names the field's path (`messages[3].content[1].text`), and the {@link Native} record that
 * keeps what gssc does not model.
 *
 * Paths are built as the reader descends; an error stops the read at the first problem, so
 * nothing is ever skipped silently.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { inputError, show, type InputError } from '../error.js'
import type { Native } from '../message.js'
import { isRecord } from '../messageProblem.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A read that either fails with an error naming the path, or gives `A`. */
export type Dec<A> = E.Either<InputError, A>

/** An untrusted plain object. */
export type Obj = Readonly<Record<string, unknown>>

// -------------------------------------------------------------------------------------
// readers
// -------------------------------------------------------------------------------------

/** A failed read at `path`. @category readers */
export const fail = (path: string, problem: string): Dec<never> => E.left(inputError(path, problem))

/** `v` as a plain object. @category readers */
export const objectAt = (v: unknown, path: string, what = 'an object'): Dec<Obj> =>
  isRecord(v) ? E.right(v) : fail(path, `must be ${what} (got ${show(v)})`)

/** `v` as an array. @category readers */
export const arrayAt = (v: unknown, path: string): Dec<ReadonlyArray<unknown>> =>
  Array.isArray(v) ? E.right(v) : fail(path, `must be an array (got ${show(v)})`)

/** The string field `key` of `o` (at `path`). @category readers */
export const stringAt = (o: Obj, key: string, path: string): Dec<string> => {
  const v = o[key]
  return typeof v === 'string' ? E.right(v) : fail(`${path}.${key}`, `must be a string (got ${show(v)})`)
}

/** The string field `key`, or undefined when absent. @category readers */
export const optionalStringAt = (o: Obj, key: string, path: string): Dec<string | undefined> =>
  o[key] === undefined ? E.right(undefined) : stringAt(o, key, path)

/** The boolean field `key`, or undefined when absent. @category readers */
export const optionalBooleanAt = (o: Obj, key: string, path: string): Dec<boolean | undefined> => {
  const v = o[key]
  return v === undefined || typeof v === 'boolean' ? E.right(v) : fail(`${path}.${key}`, `must be a boolean (got ${show(v)})`)
}

/**
 * Reads every item of an array with `f`, stopping at the first error. `f` gets the item and
 * its path (`${path}[i]`).
 *
 * @category readers
 */
export const eachAt = <T, A>(items: ReadonlyArray<T>, path: string, f: (item: T, at: string, i: number) => Dec<A>): Dec<Array<A>> => {
  const out: Array<A> = []
  for (let i = 0; i < items.length; i++) {
    const r = f(items[i] as T, `${path}[${i}]`, i)
    if (E.isLeft(r)) return r
    out.push(r.right)
  }
  return E.right(out)
}

/** {@link eachAt} for a function that gives several values per item, joined in order. @category readers */
export const flatEachAt = <T, A>(items: ReadonlyArray<T>, path: string, f: (item: T, at: string, i: number) => Dec<ReadonlyArray<A>>): Dec<Array<A>> => {
  const out: Array<A> = []
  for (let i = 0; i < items.length; i++) {
    const r = f(items[i] as T, `${path}[${i}]`, i)
    if (E.isLeft(r)) return r
    out.push(...r.right)
  }
  return E.right(out)
}

/** The field names of an object kind, as a set for {@link restOf}. @category readers */
export const keys = (...names: ReadonlyArray<string>): ReadonlySet<string> => new Set(names)

/** The fields of `o` whose names are not in `known` (undefined when there are none). @category readers */
export const restOf = (o: Obj, known: ReadonlySet<string>): Obj | undefined => {
  let rest: Record<string, unknown> | undefined
  for (const k of Object.keys(o)) {
    if (known.has(k)) continue
    rest ??= {}
    rest[k] = o[k]
  }
  return rest
}

/** The JSON text of a tool call's arguments as an object (`''` reads as `{}`). @category readers */
export const argumentsAt = (text: string, path: string): Dec<Readonly<Record<string, unknown>>> => {
  if (text === '') return E.right({})
  try {
    const v: unknown = JSON.parse(text)
    if (isRecord(v)) return E.right(v)
  } catch {
    // reported below
  }
  return fail(path, `must be the JSON text of an object: gssc's tool calls carry an arguments object (got ${show(text)})`)
}

// -------------------------------------------------------------------------------------
// native
// -------------------------------------------------------------------------------------

/**
 * `{ native }` to spread into a message or part: the fields gssc does not model and notes on
 * how the modelled ones were written; `{}` when there is neither.
 *
 * @category native
 */
export const withNative = (shape: string, fields: Obj | undefined, form?: Obj): { readonly native?: Native } => {
  const f = form === undefined ? undefined : definedOnly(form)
  if (fields === undefined && f === undefined) return {}
  return { native: { shape, ...(fields === undefined ? {} : { fields }), ...(f === undefined ? {} : { form: f }) } }
}

/** The fields a message or part kept for `shape` (none when it came from another shape). @category native */
export const fieldsOf = (shape: string, x: { readonly native?: Native }): Obj => (x.native?.shape === shape ? (x.native.fields ?? {}) : {})

/** The form notes a message or part kept for `shape`. @category native */
export const formOf = (shape: string, x: { readonly native?: Native }): Obj => (x.native?.shape === shape ? (x.native.form ?? {}) : {})

/** A form note that holds an object's kept fields (`{}` when absent). @category native */
export const objOf = (v: unknown): Obj => (isRecord(v) ? v : {})

/**
 * The error of a writer: a part (or message) at `path` that the target shape cannot express.
 *
 * @category native
 */
export const cannotWrite = (path: string, what: string, target: string): Dec<never> =>
  fail(path, `${what} cannot be written as ${target}; nothing is dropped silently (the renderers toOpenAI / toAnthropic repair and report instead)`)

const definedOnly = (o: Obj): Obj | undefined => {
  let out: Record<string, unknown> | undefined
  for (const k of Object.keys(o)) {
    if (o[k] === undefined) continue
    out ??= {}
    out[k] = o[k]
  }
  return out
}
