/**
 * Reading fields of untrusted JSON objects without casts scattered everywhere.
 *
 * @module
 */

/** A JSON object as read from a line. */
export type Json = Readonly<Record<string, unknown>>

/** The field as a string, or undefined. */
export const str = (o: Json, key: string): string | undefined => {
  const v = o[key]
  return typeof v === 'string' ? v : undefined
}

/** The field as a finite number, or undefined. */
export const num = (o: Json, key: string): number | undefined => {
  const v = o[key]
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

/** The field as a plain object, or undefined. */
export const obj = (o: Json, key: string): Json | undefined => asObject(o[key])

/** A value as a plain object, or undefined. */
export const asObject = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

/** A timestamp as epoch milliseconds (the one reader, `timestamp.ts`), or undefined. */
export { timestampMs } from '../../timestamp.js'

/** An id field: a non-empty string, or a finite number written as a string. */
export const idOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined

/** A parent id: null when absent or null, undefined when present but unusable. */
export const parentOf = (o: Json, key: string): string | null | undefined => {
  const v = o[key]
  return v === null || v === undefined ? null : idOf(v)
}

/**
 * An entry's place in the tree: its id and its parent's, or why the line cannot be placed.
 */
export const linkOf = (o: Json, idKey: string, parentKey: string): { readonly id: string; readonly parentId: string | null } | { readonly problem: string } => {
  const id = idOf(o[idKey])
  const parentId = parentOf(o, parentKey)
  if (id === undefined) return { problem: `"${idKey}" is missing or not a string; skipped` }
  if (parentId === undefined) return { problem: `"${parentKey}" is neither a string nor null; skipped` }
  return { id, parentId }
}
