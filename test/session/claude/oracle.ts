/**
 * Comparing gssc's rebuild of a Claude Code transcript with what Claude Code itself sent
 * (`../shared/fixtures/claude-code/expected/*.messages.json`, recorded with the oracle in
 * `../shared/tools/claude-code-oracle/`).
 *
 * The recording ran `claude -p --resume <session> "ORACLE-QUERY"`; its final query turn and
 * `<system-reminder>` blocks were removed. gssc is asked the same: the branch with a new
 * prompt following (`withNextPrompt`), the prompt "ORACLE-QUERY" appended and rendered,
 * then removed again. Both sides are compared in one canonical form, which only erases
 * spellings the API treats as the same: a string `content` is one text block, `is_error:
 * false` is no `is_error`, an empty result is no content, and key order does not matter.
 * Two fields are dropped: `cache_control` (where Claude Code puts its cache breakpoints, not
 * content) and a tool call's `caller: {type: "direct"}` (Claude Code adds it only while its
 * tool search is on; it names the default).
 */
import { readFileSync } from 'node:fs'
import { message } from '../../../src/message.js'
import { toAnthropic } from '../../../src/render/anthropic.js'
import { buildSession } from '../../../src/session/build.js'
import { right, tokenizer } from '../helpers.js'

type Json = any

const sortKeys = (v: Json): Json =>
  Array.isArray(v) ? v.map(sortKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v

const textBlocks = (content: Json): Json[] => (typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : (content ?? []))

const block = (b: Json): Json => {
  const { cache_control: _c, caller, ...rest } = b
  if (caller !== undefined && caller?.type !== 'direct') rest.caller = caller
  if (rest.type !== 'tool_result') return rest
  const { is_error, content, ...r } = rest
  const blocks = textBlocks(content)
  return { ...r, ...(blocks.length === 0 ? {} : { content: blocks }), ...(is_error === true ? { is_error: true } : {}) }
}

/** The canonical form of a `messages` array (see the module comment). */
export const canonical = (messages: ReadonlyArray<Json>): Json => sortKeys(messages.map((m) => ({ role: m.role, content: textBlocks(m.content).map(block) })))

/** The recorded messages Claude Code sent for a fixture. */
export const expectedMessages = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')).messages

export const ORACLE_QUERY = 'ORACLE-QUERY'

/** Removes the oracle's own prompt (the last block of the last user turn) from rendered messages. */
export const withoutQuery = (messages: ReadonlyArray<Json>): Json[] => {
  const out = [...messages]
  const last = out[out.length - 1]
  const content = textBlocks(last.content).filter((b: Json) => !(b.type === 'text' && b.text === ORACLE_QUERY))
  if (content.length === 0) out.pop()
  else out[out.length - 1] = { ...last, content }
  return out
}

/** gssc's rebuild of a transcript, rendered for the model Claude Code was resumed with, the oracle's prompt removed. */
export const rebuiltMessages = async (file: string, model: string): Promise<Json[]> => {
  const target = { provider: 'anthropic', model }
  const build = right(await buildSession(file, { tokenizer, target, withNextPrompt: true })())
  const { request } = toAnthropic([...build.history.items.map((i) => i.message), message('user', ORACLE_QUERY)], { target })
  return withoutQuery(request.messages)
}
