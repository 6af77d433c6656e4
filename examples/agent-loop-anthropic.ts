/**
 * The same agent loop memory (examples/data/chunks.json) → an Anthropic Messages request:
 * the system chunk moves to the top-level `system` with a prompt-cache breakpoint, turns
 * alternate user/assistant, and the token count includes Anthropic's per-block overhead.
 *
 * Run: npx tsx examples/agent-loop-anthropic.ts
 */
import { buildChunkContext } from 'gssc/chunks'
import { checkAnthropic, countAnthropic, toAnthropic } from 'gssc/render'
import { agentLoopState, orThrow, tokenizerFor } from './agent-loop-state.js'
import { isMain } from './load.js'

export const main = (maxTokens = 4000): string => {
  // Claude's tokenizer is not public: cl100k_base is the documented approximation (exact: false)
  const tokenizer = tokenizerFor('claude-sonnet-4-5')
  const built = orThrow(buildChunkContext(agentLoopState(), { maxTokens, tokenizer, format: 'anthropic' }))
  const { request, findings } = toAnthropic(built.messages, { cache: { system: true } })

  if (checkAnthropic(request).length > 0 || findings.length > 0) throw new Error('the request breaks an Anthropic rule')
  if (countAnthropic(request, tokenizer) !== built.tokenCount || built.tokenCount > maxTokens) throw new Error('token count')

  const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, ...request }
  return JSON.stringify({ tokenCount: built.tokenCount, tokenCountExact: built.tokenCountExact, maxTokens, request: body }, null, 2)
}

if (isMain(import.meta.url)) console.log(main())
