/**
 * The contract between the loader and a format: one JSON object in, entries and findings out.
 *
 * Adapters are pure: the little state a format needs across lines (pi v1's running index and
 * previous id) is passed in and returned, so an incremental rebuild can resume from where a
 * previous read stopped.
 *
 * @module
 */
import type { Entry, SessionFormat } from '../model.js'
import type { Json } from './fields.js'

/** What a format remembers between lines. */
export interface ParseState {
  /** JSON objects read so far (pi v1 ids and `firstKeptEntryIndex` count them, header included). */
  readonly index: number
  /** The previous entry's id: pi v1 entries are chained in file order. */
  readonly lastId: string | null
  /** pi format version; 0 until the header (or the first entry) says. */
  readonly version: number
}

/** The state before the first line. */
export const INITIAL_STATE: ParseState = { index: 0, lastId: null, version: 0 }

/** What one line gave. */
export type LineOutput =
  | { readonly _tag: 'Entry'; readonly entry: Entry }
  | { readonly _tag: 'Header'; readonly header: Json }
  | { readonly _tag: 'Title'; readonly leafId: string; readonly title: string }
  | { readonly _tag: 'Problem'; readonly reason: string }

/** Options that change how lines are read. */
export interface AdapterOptions {
  /** Keep Claude Code `isMeta` user lines as context (they were sent to the model). Default true. */
  readonly includeMeta: boolean
}

/** One step of a format's fold over the lines of a file. */
export interface Step {
  readonly state: ParseState
  readonly out: ReadonlyArray<LineOutput>
}

/** A session format: detection and line parsing. */
export interface FormatAdapter {
  readonly format: SessionFormat
  /** Does this object look like a line of this format? Used on the first decisive line. */
  readonly detect: (o: Json) => boolean
  readonly step: (state: ParseState, o: Json, line: number, options: AdapterOptions) => Step
}

/** A step that only advances the object count. */
export const skip = (state: ParseState, ...out: ReadonlyArray<LineOutput>): Step => ({
  state: { ...state, index: state.index + 1 },
  out,
})

/** A finding about the current line. */
export const problem = (reason: string): LineOutput => ({ _tag: 'Problem', reason })
