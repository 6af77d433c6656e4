/**
 * `fitMessages` on OpenAI Chat messages with tool calls, next to its linear floor (issue
 * 11's bench row): `npm run bench` prints it as `fitMessages10kVsFloor`.
 *
 * The messages: a system prompt, then rounds of a user question, an assistant turn calling
 * a tool (`content: null`, one call with JSON arguments), the tool's JSON result, and the
 * assistant's answer, ~200 characters each (bench/data.ts). Both sides fit them into the
 * same 6,800 tokens (8,000 with 1,200 reserved). The floor counts messages newest first by
 * the cookbook's rule (`countOpenAI` of one message), each once, until one does not fit: no
 * reading, no pairing of calls with results, no report. Its count is exact as it is (the
 * rule is a sum over messages).
 *
 * @module
 */
import { fitMessages, type Tokenizer } from '../src/index.js'
import { countOpenAI } from '../src/render/count.js'
import type { OpenAIMessage } from '../src/render/wire.js'
import { interleave, type Effort, type Job } from './core.js'
import { message, prng } from './data.js'

/** `fitMessages` and its floor at one size. */
export interface FitRow {
  readonly messages: number
  readonly fitMs: number
  readonly floorMs: number
  readonly runs: number
  readonly kept: number
  readonly floorKept: number
  readonly tokenCount: number
  /** fitMessages' count equals `countOpenAI` of what it returned, within the budget. */
  readonly countChecked: boolean
}

const MAX_TOKENS = 8000
const RESERVE = 1200

/** An OpenAI Chat message as the SDK types it (`content: null` on a turn of tool calls only). */
export interface SdkMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content: string | null
  readonly tool_calls?: ReadonlyArray<{ readonly id: string; readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: string } }>
  readonly tool_call_id?: string
}

/** The cookbook's count of SDK messages (`countOpenAI` counts `content: null` as nothing). */
const counted = (messages: ReadonlyArray<SdkMessage>, tokenizer: Tokenizer): number => countOpenAI(messages as unknown as ReadonlyArray<OpenAIMessage>, tokenizer)

/** `n` OpenAI Chat messages: a system prompt, then user, tool call, tool result, answer rounds. */
export const openAIMessages = (n: number, seed = 5): SdkMessage[] => {
  const r = prng(seed)
  const out: SdkMessage[] = [{ role: 'system', content: 'You are the build assistant. Use the tools.' }]
  for (let i = 1; out.length < n; i++) {
    const round = Math.floor(i / 4)
    const step = i % 4
    if (step === 0) out.push({ role: 'user', content: message(r, 0) })
    else if (step === 1) out.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${round}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `src/${round}.ts`, lines: 40 }) } }] })
    else if (step === 2) out.push({ role: 'tool', tool_call_id: `call_${round}`, content: message(r, 4) })
    else out.push({ role: 'assistant', content: message(r, i % 3 === 0 ? 2 : 0) })
  }
  return out
}

/** The floor (see the module comment). */
const floorJob = (tokenizer: Tokenizer, messages: ReadonlyArray<SdkMessage>): Job<{ readonly kept: number; readonly tokens: number }> => {
  let last = { kept: 0, tokens: 0 }
  const one = counted([], tokenizer)
  return {
    run: () => {
      let tokens = one
      let kept = 0
      for (let i = messages.length - 1; i >= 0; i--) {
        const t = counted([messages[i]!], tokenizer) - one
        if (tokens + t > MAX_TOKENS - RESERVE) break
        tokens += t
        kept++
      }
      last = { kept, tokens }
    },
    result: () => last,
  }
}

/**
 * Times `fitMessages` against the floor on `n` messages, in alternation.
 *
 * @category bench
 */
export const fitRow = async (tokenizer: Tokenizer, n: number, effort: Effort): Promise<FitRow> => {
  const messages = openAIMessages(n)
  let fitted: Awaited<ReturnType<typeof fitMessages<SdkMessage[]>>> | undefined
  const floor = floorJob(tokenizer, messages)
  const t = await interleave(effort, {
    fit: {
      run: async () => {
        fitted = await fitMessages(messages, { tokenizer, maxTokens: MAX_TOKENS, reserve: RESERVE })
      },
      result: () => fitted,
    },
    floor,
  })
  const f = fitted!
  return {
    messages: n,
    fitMs: t.fit.ms,
    floorMs: t.floor.ms,
    runs: t.fit.runs,
    kept: f.messages.length,
    floorKept: floor.result().kept,
    tokenCount: f.tokenCount,
    countChecked: f.tokenCount === counted(f.messages, tokenizer) && f.tokenCount <= MAX_TOKENS - RESERVE,
  }
}
