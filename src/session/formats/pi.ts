/**
 * pi coding-agent sessions, versions 1–3.
 *
 * ```jsonl
 * {"type":"session","version":3,"id":"5f0c2a9e-…","timestamp":"2026-01-10T09:00:00.000Z","cwd":"/home/alice/widget"}
 * {"type":"message","id":"a0000003","parentId":null,"timestamp":"2026-01-10T09:00:05.000Z","message":{"role":"user","content":"Why does the build fail?","timestamp":1768035605000}}
 * {"type":"compaction","id":"a000000a","parentId":"a0000003","timestamp":"…","summary":"## Goal…","firstKeptEntryId":"a0000003","tokensBefore":48211}
 * ```
 *
 * Migration follows pi's loader: v1 entries (no ids) are chained in file order and a v1
 * compaction's `firstKeptEntryIndex` (an index into all JSON lines, header included)
 * becomes `firstKeptEntryId`; v2's `hookMessage` role is read as `custom`. pi gives v1
 * entries random ids; gssc gives them `v1-<index>` (the same index `firstKeptEntryIndex`
 * uses), so ids are stable across loads and `--leaf v1-42` means the same entry every time.
 *
 * @module
 */
import { message } from '../../message.js'
import { entry, type EntryBody } from '../model.js'
import { problem, skip, type FormatAdapter, type LineOutput, type ParseState, type Step } from './adapter.js'
import { linkOf, num, obj, str, timestampMs, type Json } from './fields.js'
import { piMedia, piMessage } from './piMessage.js'

const ENTRY_TYPES = new Set([
  'message',
  'thinking_level_change',
  'model_change',
  'compaction',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
])

/** The session format versions pi has written. */
const KNOWN_VERSIONS: ReadonlySet<number> = new Set([1, 2, 3])

/** The v1 id of the JSON object at `index` (0 is the header). */
export const v1Id = (index: number): string => `v1-${index}`

const body = (o: Json, state: ParseState, entryTimestamp: number | undefined, out: LineOutput[]): EntryBody => {
  const type = String(o['type'])
  switch (type) {
    case 'message': {
      const m = obj(o, 'message')
      if (m === undefined) {
        out.push(problem('message entry has no message object; kept in the tree, contributes nothing'))
        return { _tag: 'Other', type }
      }
      const converted = piMessage(m, state.version)
      if ('problem' in converted) {
        out.push(problem(`${converted.problem}; kept in the tree, contributes nothing`))
        return { _tag: 'Other', type }
      }
      for (const p of converted.problems) out.push(problem(p))
      return { _tag: 'Message', kind: converted.kind, messages: converted.messages }
    }
    case 'thinking_level_change':
      return { _tag: 'ThinkingLevelChange', thinkingLevel: str(o, 'thinkingLevel') ?? 'off' }
    case 'model_change':
      return { _tag: 'ModelChange', provider: str(o, 'provider') ?? '', modelId: str(o, 'modelId') ?? '' }
    case 'compaction': {
      const index = num(o, 'firstKeptEntryIndex')
      // v1: an index into all JSON objects; index 0 (the header) or a fraction leaves it unset, as in pi
      const firstKept = str(o, 'firstKeptEntryId') ?? (index !== undefined && Number.isInteger(index) && index > 0 ? v1Id(index) : undefined)
      return {
        _tag: 'Compaction',
        summary: str(o, 'summary') ?? '',
        ...(firstKept === undefined ? {} : { firstKeptEntryId: firstKept }),
        tokensBefore: num(o, 'tokensBefore') ?? 0,
      }
    }
    case 'branch_summary':
      return { _tag: 'BranchSummary', summary: str(o, 'summary') ?? '', fromId: str(o, 'fromId') ?? '' }
    case 'custom_message': {
      const problems: string[] = []
      const content = piMedia(o['content'], problems)
      for (const p of problems) out.push(problem(p))
      return {
        _tag: 'Message',
        kind: 'custom',
        messages: [message('user', content, entryTimestamp === undefined ? {} : { timestamp: entryTimestamp })],
      }
    }
    case 'label': {
      const label = str(o, 'label')
      return { _tag: 'Label', targetId: str(o, 'targetId') ?? '', ...(label ? { label } : {}) }
    }
    case 'session_info': {
      const name = str(o, 'name')?.trim()
      return { _tag: 'SessionInfo', ...(name ? { name } : {}) }
    }
    case 'custom':
      return { _tag: 'Other', type }
    default:
      out.push(problem(`unknown entry type ${JSON.stringify(o['type'])}; kept in the tree, contributes nothing`))
      return { _tag: 'Other', type }
  }
}

const step = (state: ParseState, o: Json, line: number): Step => {
  const index = state.index
  if (o['type'] === 'session') {
    if (index > 0) return skip(state, problem('a second session header; ignored'))
    const declared = o['version'] === undefined ? 1 : num(o, 'version')
    if (declared !== undefined && KNOWN_VERSIONS.has(declared)) return { state: { ...state, index: 1, version: declared }, out: [{ _tag: 'Header', header: o }] }
    // a version gssc does not know: read as the newest it knows, and say so
    return {
      state: { ...state, index: 1, version: 3 },
      out: [problem(`unknown pi session version ${JSON.stringify(o['version'])} (gssc reads versions 1 to 3); read as version 3`), { _tag: 'Header', header: o }],
    }
  }
  const out: LineOutput[] = []
  let version = state.version
  if (version === 0) {
    version = typeof o['id'] === 'string' ? 3 : 1
    out.push(problem(`no session header before the first entry (pi itself would discard this file); read as version ${version}`))
  }
  const link = version < 2 ? { id: v1Id(index), parentId: state.lastId } : linkOf(o, 'id', 'parentId')
  if ('problem' in link) return { state: { ...state, index: index + 1, version }, out: [...out, problem(link.problem)] }
  const timestamp = timestampMs(o['timestamp'])
  const b = body(o, { ...state, version }, timestamp, out)
  out.push({ _tag: 'Entry', entry: entry(link, line, timestamp, b, true) })
  return { state: { index: index + 1, lastId: link.id, version }, out }
}

/**
 * The pi adapter.
 *
 * @category instances
 */
export const piFormat: FormatAdapter = {
  format: 'pi',
  detect: (o) => o['type'] === 'session' || (typeof o['type'] === 'string' && ENTRY_TYPES.has(o['type']) && !('uuid' in o)),
  step: (state, o, line) => step(state, o, line),
}
