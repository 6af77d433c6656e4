/**
 * The memory folder, in all three nanobot layouts:
 * - `memory/MEMORY.md`, long-term facts (every era);
 * - `memory/<today>.md`, today's note (v0.1.3; read in any layout when present);
 * - a history log: `memory/history.jsonl` (v0.2.2+), else `memory/HISTORY.md` (v0.1.4–v0.2.0).
 *
 * History logs grow without end, so only their tail is read, and only the newest
 * `maxEntries` entries after the Dream cursor (`memory/.dream_cursor`) are kept.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'
import { readWorkspaceFile, type ReadLimit } from './files.js'
import { isRecord } from './frontmatter.js'
import type { HistoryEntry, Memory, WorkspaceFile } from './model.js'

/** What the memory loader needs to know. */
export interface MemorySettings {
  readonly limitBytes: number
  /** `YYYY-MM-DD` in the workspace's time zone. */
  readonly today: string
  readonly maxEntries: number
  /** Keep only entries of this session (and entries with no session). */
  readonly sessionKey?: string
  /**
   * nanobot HEAD's rules: entries need a whole-number cursor, a session key keeps only its
   * own entries, and a HISTORY.md log is not shown (nanobot migrates it into history.jsonl
   * and marks every entry as already processed).
   */
  readonly head?: boolean
}

/**
 * Reads `memory/` under `root`.
 *
 * @category utils
 */
export const loadMemory = async (
  root: string,
  settings: MemorySettings,
): Promise<E.Either<InputError, { readonly memory: Memory; readonly problems: ReadonlyArray<InputError> }>> => {
  const head: ReadLimit = { limitBytes: settings.limitBytes, end: 'head' }
  const tail: ReadLimit = { limitBytes: settings.limitBytes, end: 'tail' }
  const files = await Promise.all([
    readWorkspaceFile(root, 'memory/MEMORY.md', head),
    readWorkspaceFile(root, `memory/${settings.today}.md`, head),
    readWorkspaceFile(root, 'memory/history.jsonl', tail),
    readWorkspaceFile(root, 'memory/HISTORY.md', tail),
    readWorkspaceFile(root, 'memory/.dream_cursor', { limitBytes: 64, end: 'head' }),
  ])
  for (const f of files) if (E.isLeft(f)) return f
  const [longTerm, today, jsonl, markdown, cursorFile] = files.map((f) => (E.isRight(f) ? f.right : undefined))
  const cursor = cursorFile === undefined ? { problems: [] } : readCursor(cursorFile)
  const log = jsonl ?? markdown
  const headRules = settings.head === true
  const parsed =
    jsonl !== undefined ? parseHistoryJsonl(jsonl) : { entries: markdown !== undefined && !headRules ? parseHistoryMarkdown(markdown.text) : [], problems: [] }
  const dream = cursor.value
  const unseen = parsed.entries
    .filter((e) => (headRules ? validCursor(e.cursor) && e.cursor > (dream ?? 0) : dream === undefined || e.cursor === undefined || e.cursor > dream))
    .filter((e) => settings.sessionKey === undefined || e.sessionKey === settings.sessionKey || (!headRules && e.sessionKey === undefined))
  const history = settings.maxEntries > 0 ? unseen.slice(-settings.maxEntries) : []
  return E.right({
    memory: {
      layout: jsonl !== undefined ? 'history-jsonl' : markdown !== undefined ? 'history-md' : 'daily',
      ...(longTerm === undefined ? {} : { longTerm }),
      ...(today === undefined ? {} : { today }),
      history,
      ...(log === undefined ? {} : { historyFile: log.name }),
    },
    problems: [...cursor.problems, ...parsed.problems],
  })
}

/** nanobot HEAD keeps only entries whose cursor is a whole number, 0 or more. */
const validCursor = (c: number | undefined): c is number => c !== undefined && Number.isSafeInteger(c) && c >= 0

/** A value read from a file, and the problems met reading it. */
interface Read<A> {
  readonly value?: A
  readonly problems: ReadonlyArray<InputError>
}

const readCursor = (file: WorkspaceFile): Read<number> => {
  const text = file.text.trim()
  return /^\d+$/.test(text)
    ? { value: Number(text), problems: [] }
    : { problems: [inputError(file.name, `must hold a whole number (got ${JSON.stringify(text.slice(0, 20))}); the Dream cursor is ignored`, 1)] }
}

/**
 * history.jsonl: one `{"cursor", "timestamp", "content", "session_key"?}` object per line.
 * A line that is not such an object is reported and skipped; blank lines are ignored.
 *
 * @category utils
 */
export const parseHistoryJsonl = (file: WorkspaceFile): { readonly entries: ReadonlyArray<HistoryEntry>; readonly problems: ReadonlyArray<InputError> } => {
  const problems: InputError[] = []
  const where = file.partial ? ` (counting from the start of the last ${file.text.length.toLocaleString('en-US')} characters read)` : ''
  const entries: HistoryEntry[] = []
  file.text.split('\n').forEach((raw, i) => {
    const line = i + 1
    if (raw.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (e) {
      problems.push(inputError(file.name, `not valid JSON${where}: ${e instanceof Error ? e.message : String(e)}`, line))
      return
    }
    if (!isRecord(value) || typeof value.content !== 'string') {
      problems.push(inputError(file.name, `field "content" must be a string${where}`, line))
      return
    }
    entries.push({
      timestamp: typeof value.timestamp === 'string' ? value.timestamp : '',
      content: value.content,
      line,
      ...(typeof value.cursor === 'number' ? { cursor: value.cursor } : {}),
      ...(typeof value.session_key === 'string' ? { sessionKey: value.session_key } : {}),
    })
  })
  return { entries, problems }
}

const STAMP = /^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2})\]\s*/

/**
 * HISTORY.md: paragraphs separated by blank lines, each starting `[YYYY-MM-DD HH:MM]`. A
 * paragraph without a stamp is kept with an empty timestamp.
 *
 * @category utils
 */
export const parseHistoryMarkdown = (text: string): ReadonlyArray<HistoryEntry> => {
  const entries: HistoryEntry[] = []
  const lines = text.split('\n')
  let start = -1
  const flush = (end: number): void => {
    if (start < 0) return
    const paragraph = lines.slice(start, end).join('\n')
    const stamp = STAMP.exec(paragraph)
    entries.push({ timestamp: stamp?.[1] ?? '', content: stamp === null ? paragraph : paragraph.slice(stamp[0].length), line: start + 1 })
    start = -1
  }
  lines.forEach((l, i) => {
    if (l.trim() === '') flush(i)
    else if (start < 0) start = i
  })
  flush(lines.length)
  return entries
}
