/**
 * The public entry points with malformed data, table-driven: each one answers with a Left (or a
 * GsscError) naming the input at fault, never a thrown or rejected raw exception.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { buildChunkContext } from '../src/chunks/build.js'
import { parseMemoryState } from '../src/chunks/parse.js'
import { makeConfig } from '../src/config.js'
import { buildLlmMessagesFromConversation } from '../src/conversation/build.js'
import { loadTemplates } from '../src/conversation/templateFiles.js'
import { gatherer } from '../src/gather/gatherer.js'
import { build, gather } from '../src/pipeline.js'
import { validateRequest } from '../src/request.js'
import { buildSession } from '../src/session/build.js'
import { loadSession } from '../src/session/load.js'
import { parseTemplate, template } from '../src/structure/template.js'
import { createTokenizer } from '../src/tokenize/tokenizer.js'
import { loadWorkspace } from '../src/workspace/load.js'
import { gpt4o, NOW } from './helpers.js'

const TAGS = ['ConfigError', 'InputError', 'GatherError', 'TemplateError']
const q = { query: 'q' }
const opts = { tokenizer: gpt4o, now: NOW }
const bad = (v: unknown): never => v as never

/** Runs an entry point: an Either, a TaskEither or a Promise, whatever it returns. */
const settle = async (call: () => unknown): Promise<unknown> => {
  const v = call()
  return typeof v === 'function' ? await (v as () => Promise<unknown>)() : await v
}

const cases: ReadonlyArray<readonly [string, () => unknown, RegExp]> = [
  // build: the request
  ['build(null)', () => build(bad(null), opts), /^request: must be an object/],
  ['build("hi")', () => build(bad('hi'), opts), /^request: must be an object/],
  ['build({})', () => build(bad({}), opts), /^query: must be a string/],
  ['query: 5', () => build(bad({ query: 5 }), opts), /^query:/],
  ['instructions: [1]', () => build(bad({ ...q, instructions: ['a', 1] }), opts), /^instructions\[1\]:/],
  ['history: "x"', () => build(bad({ ...q, history: 'x' }), opts), /^history: must be an array/],
  ['history: [null]', () => build(bad({ ...q, history: [null] }), opts), /^history\[0\]:/],
  ['history content [42]', () => build(bad({ ...q, history: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'user', content: [42, { type: 'hologram' }] }] }), opts), /^history\[2\]\.content\[0\]:/],
  ['history timestamp', () => build(bad({ ...q, history: [{ role: 'user', content: 'x', timestamp: 'tomorrow' }] }), opts), /^history\[0\]\.timestamp:/],
  ['history parts', () => build(bad({ ...q, history: [{ role: 'assistant', parts: [{ _tag: 'ToolCall', id: 'c', name: 'x', args: null }] }] }), opts), /^history\[0\]\.parts\[0\]\.args:/],
  ['packets: {}', () => build(bad({ ...q, packets: {} }), opts), /^packets: must be an array/],
  ['packets content', () => build(bad({ ...q, packets: [{ type: 'evidence', content: 1 }] }), opts), /^packets\[0\]\.content:/],
  ['packets type', () => build(bad({ ...q, packets: [{ type: 'fact', content: 'x' }] }), opts), /^packets\[0\]\.type:/],
  ['packets priority', () => build(bad({ ...q, packets: [{ type: 'custom', content: 'x', priority: 7 }] }), opts), /^packets\[0\]\.priority:/],
  ['packets timestamp', () => build(bad({ ...q, packets: [{ type: 'custom', content: 'x', timestamp: 'soon' }] }), opts), /^packets\[0\]\.timestamp:/],
  ['packets message', () => build(bad({ ...q, packets: [{ type: 'history', content: 'x', message: { role: 'user', parts: [{ _tag: 'Hologram' }] } }] }), opts), /^packets\[0\]\.message\.parts\[0\]:/],
  ['media: [{}]', () => build(bad({ ...q, media: [{}] }), opts), /^media\[0\]:/],
  // build: the options
  ['options: null', () => build(q, bad(null)), /options: must be an object/],
  ['config: null', () => build(q, bad({ ...opts, config: null })), /^config: must be an object/],
  ['config.maxTokens 2^60', () => build(q, { ...opts, config: { maxTokens: 2 ** 60 } }), /^config\.maxTokens:/],
  ['config.maxToken (typo)', () => build(q, bad({ ...opts, config: { maxToken: 5 } })), /^config\.maxToken: unknown field/],
  ['config.reserveRatio NaN', () => build(q, { ...opts, config: { reserveRatio: Number.NaN } }), /^config\.reserveRatio:/],
  ['tokenizer: "gpt-4o"', () => build(q, bad({ tokenizer: 'gpt-4o' })), /^config\.tokenizer:/],
  ['now: NaN', () => build(q, { tokenizer: gpt4o, now: Number.NaN }), /^config\.now:/],
  ['now throws', () => build(q, { tokenizer: gpt4o, now: () => { throw new Error('no clock') } }), /^config\.now: the clock failed: no clock/],
  ['timeoutMs: -1', () => build(q, { ...opts, timeoutMs: -1 }), /^config\.timeoutMs:/],
  ['gatherers: "x"', () => build(q, bad({ ...opts, gatherers: 'x' })), /^config\.gatherers:/],
  ['structurer: an Either', () => build(q, bad({ ...opts, structurer: template('{{task}}') })), /^config\.structurer: must be a function/],
  ['selector: 5', () => build(q, bad({ ...opts, selector: 5 })), /^config\.selector:/],
  ['compressor: {}', () => build(q, bad({ ...opts, compressor: {} })), /^config\.compressor:/],
  ['renderer: "openai"', () => build(q, bad({ ...opts, renderer: 'openai' })), /^config\.renderer:/],
  ['a gatherer returns a bad packet', () => build(q, { ...opts, onError: 'fail', gatherers: [gatherer('mine', () => [bad({ type: 'evidence', content: null })])] }), /^gatherer "mine" failed: packets\[0\]\.content:/],
  ['a retriever answers null', () => build(q, { ...opts, onError: 'fail', rag: { retrieve: async () => bad(null) } }), /^gatherer "rag" failed: must resolve to an array/],
  ['a memory search is not a function', () => build(q, bad({ ...opts, onError: 'fail', memory: { search: 5 } })), /^config\.memory: must be \{ search/],
  ['gatherers: [null]', () => build(q, bad({ ...opts, onError: 'fail', gatherers: [null] })), /^gatherer "composite\[4\]" failed: must be a gatherer function/],
  ['gather(...)(null)', () => gather([], opts)(bad(null)), /^request:/],
  ['validateRequest(undefined)', () => validateRequest(undefined), /^request:/],
  // config and tokenizer
  ['makeConfig(null)', () => makeConfig(bad(null)), /^config: must be an object/],
  ['makeConfig maxTokens "8000"', () => makeConfig(bad({ maxTokens: '8000' })), /^config\.maxTokens:/],
  ['createTokenizer(42)', () => createTokenizer(bad(42)), /^config\.model:/],
  ['createTokenizer("llama-3")', () => createTokenizer('llama-3'), /^config\.model: unknown model "llama-3"; .*estimate/],
  // templates
  ['template(42)', () => template(bad(42)), /^template: must be a string/],
  ['parseTemplate("{{task")', () => parseTemplate('Q: {{task'), /^template placeholder \{\{task\}\}: not closed/],
  // chunk states
  ['parseMemoryState(null)', () => parseMemoryState(null, 'state.json'), /^state\.json: must be an object/],
  ['parseMemoryState chunks: 5', () => parseMemoryState({ chunks: 5 }, 'state.json'), /^state\.json\.chunks:/],
  ['parseMemoryState bad type', () => parseMemoryState({ chunks: { a: { id: 'a', type: 'NOPE', content: { type: 'TEXT', text: 'x' } } } }, 'state.json'), /^state\.json\.chunks\["a"\]\.type:/],
  ['parseMemoryState unknown id', () => parseMemoryState({ chunks: {}, chunkIds: ['zz'] }, 'state.json'), /^state\.json\.chunkIds\[0\]:/],
  ['buildChunkContext({})', () => buildChunkContext(bad({})), /^state\.chunkIds: must be an array/],
  ['buildChunkContext plain object chunks', () => buildChunkContext(bad({ chunkIds: [], chunks: {} })), /^state\.chunks: must be a Map/],
  ['buildChunkContext maxTokens 1.5', () => buildChunkContext({ chunkIds: [], chunks: new Map() }, { maxTokens: 1.5 }), /^config\.maxTokens:/],
  ['buildChunkContext tokenizer "x"', () => buildChunkContext({ chunkIds: [], chunks: new Map() }, bad({ tokenizer: 'x' })), /^config\.tokenizer:/],
  // conversations
  ['conversation messages: null', () => buildLlmMessagesFromConversation(bad({ messages: null, mode: 'chat' })), /^messages: must be an array/],
  ['conversation messages: [null]', () => buildLlmMessagesFromConversation(bad({ messages: [null], mode: 'chat' })), /^messages\[0\]:/],
  ['conversation mode', () => buildLlmMessagesFromConversation(bad({ messages: [], mode: 'x' })), /^mode:/],
  ['conversation options: undefined', () => buildLlmMessagesFromConversation(bad(undefined)), /^options: must be an object/],
  ['loadTemplates(missing)', () => loadTemplates('/nonexistent/gssc-templates'), /nonexistent/],
  // files
  ['loadSession(42)', () => loadSession(bad(42)), /^42|session/],
  ['loadSession(missing)', () => loadSession('/nonexistent/s.jsonl'), /^\/nonexistent\/s\.jsonl:/],
  ['buildSession(missing)', () => buildSession('/nonexistent/s.jsonl', { tokenizer: gpt4o }), /^\/nonexistent\/s\.jsonl:/],
  ['loadWorkspace(missing)', () => loadWorkspace('/nonexistent/ws'), /nonexistent\/ws/],
  ['loadWorkspace(42)', () => loadWorkspace(bad(42)), /workspace|42/],
]

describe('public entry points with malformed data', () => {
  it.each(cases)('%s: a GsscError naming the input, never a raw exception', async (_, call, message) => {
    let outcome: unknown
    try {
      outcome = await settle(call)
    } catch (e) {
      throw new Error(`threw instead of returning a Left: ${e instanceof Error ? e.stack : String(e)}`)
    }
    expect(E.isLeft(outcome as E.Either<unknown, unknown>)).toBe(true)
    const left = (outcome as E.Left<{ _tag: string; message: string }>).left
    expect(TAGS).toContain(left._tag)
    expect(left.message).toMatch(message)
  })
})
