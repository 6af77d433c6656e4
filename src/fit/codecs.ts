/**
 * Reading and writing each SDK message shape, by name, for `fitMessages`: the adapters'
 * readers and writers (`src/adapters/`), and which provider's counting rules a shape is sent
 * under.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { fromAISDK } from '../adapters/aiSdkIn.js'
import { toAISDK } from '../adapters/aiSdkOut.js'
import { fromAnthropicMessages } from '../adapters/anthropicIn.js'
import { toAnthropicMessages } from '../adapters/anthropicOut.js'
import type { Dec } from '../adapters/decode.js'
import { fromLangChain } from '../adapters/langchainIn.js'
import { toLangChain, type LangChainClasses } from '../adapters/langchainOut.js'
import { fromOpenAIChat } from '../adapters/openaiChatIn.js'
import { toOpenAIChat } from '../adapters/openaiChatOut.js'
import { fromOpenAIResponses } from '../adapters/responsesIn.js'
import { toOpenAIResponses } from '../adapters/responsesOut.js'
import { SHAPES, type Decoded, type Shape } from '../adapters/shape.js'
import { inputError, type InputError } from '../error.js'
import type { ChatMessage } from '../message.js'
import type { Format } from '../render/options.js'

/**
 * A shape's reader and writer. `write` gets the input too, to give the answer its form, and
 * for each message the input index it is an unchanged copy of (`undefined`: changed or new).
 */
export interface Codec {
  readonly read: (input: unknown) => Dec<Decoded>
  readonly write: (messages: ReadonlyArray<ChatMessage>, input: unknown, origin: ReadonlyArray<number | undefined>) => Dec<unknown>
  /** The provider whose counting rules apply. */
  readonly format: Format
}

/** The codec of each shape. */
export const CODECS: Readonly<Record<Shape, Codec | undefined>> = {
  'openai-chat': { read: (x) => fromOpenAIChat(x), write: (m) => toOpenAIChat(m), format: 'openai' },
  'openai-responses': { read: (x) => fromOpenAIResponses(x), write: (m) => toOpenAIResponses(m), format: 'openai' },
  // an array of turns in, an array out; a request body in, a request body out
  anthropic: { read: (x) => fromAnthropicMessages(x), write: (m, input) => E.map((r: { readonly messages: unknown }) => (Array.isArray(input) ? r.messages : r))(toAnthropicMessages(m)), format: 'anthropic' },
  'ai-sdk': { read: (x) => fromAISDK(x), write: (m) => toAISDK(m), format: 'openai' },
  langchain: { read: (x) => fromLangChain(x), write: (m, input, origin) => writeLangChain(m, input, origin), format: 'openai' },
}

/** LangChain's message types and the class names that build them. */
const LC_TYPES: Readonly<Record<string, keyof LangChainClasses<unknown, unknown, unknown, unknown>>> = { system: 'SystemMessage', human: 'HumanMessage', ai: 'AIMessage', tool: 'ToolMessage' }

/**
 * LangChain out: an unchanged message is the caller's own instance (with all it holds); a
 * changed or new one is built with the classes of the caller's instances (LangChain's own,
 * without gssc depending on it).
 */
const writeLangChain = (messages: ReadonlyArray<ChatMessage>, input: unknown, origin: ReadonlyArray<number | undefined>): Dec<unknown> => {
  const given = Array.isArray(input) ? input : []
  const classes: Record<string, unknown> = {}
  for (const x of given) {
    const type = typeof x === 'object' && x !== null && typeof (x as { _getType?: unknown })._getType === 'function' ? String((x as { _getType: () => unknown })._getType()) : undefined
    const name = type === undefined ? undefined : LC_TYPES[type]
    if (name !== undefined) classes[name] ??= (x as object).constructor
  }
  const out: unknown[] = []
  for (let k = 0; k < messages.length; k++) {
    const at = origin[k]
    if (at !== undefined) {
      out.push(given[at])
      continue
    }
    const name = LC_TYPES[{ system: 'system', user: 'human', assistant: 'ai', tool: 'tool' }[messages[k]!.role]]!
    if (classes[name] === undefined) return E.left(inputError(`messages[${k}]`, `a ${name} must be written, and the input holds no ${name} instance to take the class from`))
    const built = toLangChain([messages[k]!], classes as unknown as LangChainClasses<unknown, unknown, unknown, unknown>)
    if (E.isLeft(built)) return built
    out.push(...built.right)
  }
  return E.right(out)
}

/**
 * Reads messages of a given shape, or of the first shape (in {@link SHAPES} order) that
 * reads them; when none does, the error is the one of the shape that read furthest.
 *
 * @category utils
 * @since 0.2.0
 */
export const readShape = (input: unknown, shape?: Shape): Dec<{ readonly decoded: Decoded; readonly codec: Codec }> => {
  const tried = shape === undefined ? SHAPES : [shape]
  let best: E.Left<InputError> | undefined
  for (const s of tried) {
    const codec = CODECS[s]
    if (codec === undefined) {
      if (shape !== undefined) return E.left(inputError('shape', `${s} messages are not supported yet`))
      continue
    }
    const r = codec.read(input)
    if (E.isRight(r)) return E.right({ decoded: r.right, codec })
    if (best === undefined || r.left.input.length > best.left.input.length) best = r as E.Left<InputError>
  }
  return best ?? E.left(inputError('messages', 'no message shape reads this input'))
}
