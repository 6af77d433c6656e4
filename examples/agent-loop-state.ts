/**
 * Shared by the agent-loop examples: reads examples/data/chunks.json (the stored memory of an
 * agent loop, in team9's format) and makes a tokenizer. Both fail loudly: an example has no
 * caller to hand an error value to.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { parseMemoryState, type MemoryState } from 'gssc/chunks'
import { createTokenizer, type Tokenizer } from 'gssc'

const orThrow = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

/** The example agent loop's memory state. */
export const agentLoopState = (): MemoryState =>
  orThrow(parseMemoryState(JSON.parse(readFileSync(fileURLToPath(new URL('./data/chunks.json', import.meta.url)), 'utf8')), 'examples/data/chunks.json'))

/** A tokenizer for a model name. */
export const tokenizerFor = (model: string): Tokenizer => orThrow(createTokenizer(model))

export { orThrow }
