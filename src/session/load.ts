/**
 * Loading a session file: stream it once, index entries by id once, and collect every
 * problem as a diagnostic (or fail on the first one, in strict mode).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { inputError, type InputError } from '../error.js'
import type { Diagnostic, Entry, LoadedSession, SessionFormat } from './model.js'
import { FROM_START, scan, type Scan } from './scan.js'
import { defaultLeaf, treeProblems } from './tree.js'

/** How to read a session file. */
export interface SessionLoadOptions {
  /** Skip detection and read the file as this format. */
  readonly format?: SessionFormat
  /** Fail on the first problem (bad line, duplicate id, missing parent, cycle) instead of reporting it. */
  readonly strict?: boolean
  /** Keep Claude Code `isMeta` user lines (sent to the model, hidden in its UI). Default true. */
  readonly includeMeta?: boolean
}

/** A loaded session and the scan it came from (where an incremental rebuild resumes). */
export interface Loaded {
  readonly session: LoadedSession
  readonly scan: Scan
}

const firstFailure = (file: string, diagnostics: ReadonlyArray<Diagnostic>): InputError | undefined => {
  const first = diagnostics.reduce<Diagnostic | undefined>((a, d) => (a === undefined || d.line < a.line ? d : a), undefined)
  return first === undefined ? undefined : inputError(file, first.reason, first.line)
}

/**
 * Indexes a scan's entries: ids are unique (the first line with an id wins, later ones are
 * reported), labels and the display name are resolved, and the default leaf is chosen.
 *
 * @category constructors
 */
export const assemble = (file: string, s: Scan, strict: boolean): E.Either<InputError, LoadedSession> => {
  const format: SessionFormat = s.format ?? 'pi'
  const byId = new Map<string, Entry>()
  const entries: Entry[] = []
  const diagnostics: Diagnostic[] = [...s.diagnostics]
  const labels = new Map<string, string>()
  let name: string | undefined
  for (const e of s.entries) {
    const first = byId.get(e.id)
    if (first !== undefined) {
      diagnostics.push({ file, line: e.line, reason: `duplicate id "${e.id}" (first on line ${first.line}); this line is ignored` })
      continue
    }
    byId.set(e.id, e)
    entries.push(e)
    if (e.body._tag === 'Label') {
      if (e.body.label === undefined) labels.delete(e.body.targetId)
      else labels.set(e.body.targetId, e.body.label)
    } else if (e.body._tag === 'SessionInfo' && e.body.name !== undefined) name = e.body.name
  }
  const tree = treeProblems(entries, byId, file)
  diagnostics.push(...tree.diagnostics)
  // a parent cycle is cut where its diagnostic says, so every walk agrees and no turn is lost
  for (const [i, e] of entries.entries())
    if (tree.cut.has(e.id)) {
      const root = { ...e, parentId: null }
      entries[i] = root
      byId.set(e.id, root)
    }
  const titles = new Map<string, string>()
  for (const t of s.titles) if (byId.has(t.leafId)) titles.set(t.leafId, t.title)
  if (strict) {
    const failure = firstFailure(file, diagnostics)
    if (failure !== undefined) return E.left(failure)
  }
  diagnostics.sort((a, b) => a.line - b.line)
  return E.right({
    file,
    format,
    ...(format === 'pi' && s.state.version > 0 ? { version: s.state.version } : {}),
    ...(s.header === undefined ? {} : { header: s.header }),
    entries,
    byId,
    defaultLeaf: defaultLeaf(format, entries),
    labels,
    ...(name === undefined ? {} : { name }),
    titles,
    diagnostics,
  })
}

/**
 * Loads a file and keeps the scan. See {@link loadSession}; with `stub`, message entries of
 * pi and seed files are kept as stubs (`stub.ts`).
 *
 * @category constructors
 */
export const loadWithScan =
  (file: string, options: SessionLoadOptions = {}, stub = false): TE.TaskEither<InputError, Loaded> =>
  async () => {
    const strict = options.strict ?? false
    const scanned = await scan(file, { ...FROM_START, ...(options.format === undefined ? {} : { format: options.format }) }, {
      strict,
      includeMeta: options.includeMeta ?? true,
      stub,
    })
    if (E.isLeft(scanned)) return scanned
    const { format, diagnostics } = scanned.right
    if (format === undefined)
      return E.left(
        inputError(
          file,
          diagnostics[0] === undefined
            ? 'the file holds no session lines (it is empty)'
            : `no readable session line (${diagnostics.length} bad; the first, on line ${diagnostics[0].line}: ${diagnostics[0].reason})`,
        ),
      )
    return E.map((session: LoadedSession) => ({ session, scan: scanned.right }))(assemble(file, scanned.right, strict))
  }

/**
 * Loads a session file of any supported format (detected from its first telling line).
 * The file is streamed line by line; each line is parsed once and entries are indexed by
 * id once. Bad lines never stop the load: each becomes a `{ file, line, reason }`
 * diagnostic, unless `strict` is set, in which case the load fails with the first one.
 *
 * @example
 * const loaded = await loadSession('session.jsonl')()
 * if (E.isRight(loaded)) console.log(loaded.right.format, loaded.right.entries.length, loaded.right.diagnostics)
 * @category constructors
 * @since 0.1.0
 */
export const loadSession = (file: string, options: SessionLoadOptions = {}): TE.TaskEither<InputError, LoadedSession> => {
  const run = loadWithScan(file, options)
  return async () => E.map((l: Loaded) => l.session)(await run())
}
