/**
 * An agent loop's memory (examples/data/chunks.json: a system chunk, a progress summary, the
 * user's request, thinking, tool calls and results including an error, a sub-agent, a user
 * intervention, a todo update and the final output) → OpenAI Chat Completions messages,
 * within a token budget that keeps the newest chunks (and the CRITICAL ones).
 *
 * Run: npx tsx examples/agent-loop-openai.ts
 */
import { buildChunkContext } from 'gssc/chunks'
import { checkOpenAI, countOpenAI, toOpenAI } from 'gssc/render'
import { agentLoopState, orThrow, tokenizerFor } from './agent-loop-state.js'
import { isMain } from './load.js'

export const main = (maxTokens = 700): string => {
  const tokenizer = tokenizerFor('gpt-4o')
  const built = orThrow(buildChunkContext(agentLoopState(), { maxTokens, tokenizer, systemPrompt: 'Answer the user; cite the tool results you rely on.' }))
  const { messages, findings } = toOpenAI(built.messages)

  // what gssc promises, checked on this run
  if (checkOpenAI(messages).length > 0 || findings.length > 0) throw new Error('the messages break an OpenAI rule')
  if (countOpenAI(messages, tokenizer) !== built.tokenCount || built.tokenCount > maxTokens) throw new Error('token count')

  return JSON.stringify({ tokenCount: built.tokenCount, maxTokens, included: built.includedChunkIds, excluded: built.exclusions, messages }, null, 2)
}

if (isMain(import.meta.url)) console.log(main())
