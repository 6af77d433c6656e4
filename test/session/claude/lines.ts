/** Tiny Claude Code transcript lines for rule tests (the shapes Claude Code 2.1 writes). */
type Json = Record<string, unknown>

const base = (uuid: string, parentUuid: string | null, second: number, extra: Json = {}): Json => ({
  parentUuid,
  isSidechain: false,
  userType: 'external',
  sessionId: 's',
  version: '2.1.38',
  uuid,
  timestamp: new Date(Date.UTC(2026, 1, 10, 12, 0, second)).toISOString(),
  ...extra,
})

export const user = (uuid: string, parent: string | null, second: number, content: unknown, extra: Json = {}): string =>
  JSON.stringify({ ...base(uuid, parent, second, extra), type: 'user', message: { role: 'user', content } })

export const assistant = (uuid: string, parent: string | null, second: number, id: string, content: ReadonlyArray<Json>, extra: Json = {}): string =>
  JSON.stringify({ ...base(uuid, parent, second, extra), type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content, stop_reason: null } })

export const progress = (uuid: string, parent: string, second: number): string => JSON.stringify({ ...base(uuid, parent, second), type: 'progress', data: { type: 'hook_progress' } })

export const system = (uuid: string, parent: string, second: number, subtype: string, content = ''): string =>
  JSON.stringify({ ...base(uuid, parent, second), type: 'system', subtype, content, level: 'info' })

export const call = (id: string, name = 'Bash', input: Json = { command: 'ls' }): Json => ({ type: 'tool_use', id, name, input })
export const result = (id: string, content: unknown = 'ok', isError = false): Json => ({ type: 'tool_result', tool_use_id: id, content, is_error: isError })
export const text = (t: string): Json => ({ type: 'text', text: t })
