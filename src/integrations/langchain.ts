/**
 * LangChain.js: a `createAgent` middleware (langchain v1) that fits every model call of the
 * agent loop to the budget.
 *
 * ```ts
 * const agent = createAgent({ model, tools, systemPrompt,
 *   middleware: [createMiddleware(fitMiddleware({ model: 'gpt-4o', maxTokens: 8000, reserve: 1000 }))] })
 * ```
 *
 * It wraps the model call (`wrapModelCall`), not the state: the agent's state keeps the whole
 * conversation (checkpoints, the UI, a later bigger model see all of it), and each call sends
 * a fitted copy, made by `fitMessages` (newest turns kept, an AIMessage's tool calls and their
 * ToolMessages kept or dropped together, an oversized result cut). The request's system
 * message and tools are counted too; the system message is replaced only when it had to be
 * cut. Kept messages are the agent's own instances; a cut one is built with the classes of
 * the agent's own, so gssc imports nothing of LangChain.
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { InputError } from '../error.js'
import type { FitMessagesOptions } from '../fit/fitMessages.js'
import { toPromise } from '../promise.js'
import { fitModelCallTE, type ModelCallFit } from './modelCall.js'
import { langChainToolDefinitions, toolFormatOf, type ToolFormat } from './tools.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Options of {@link fitMiddleware}: those of `fitMessages`, and the middleware's own. */
export interface FitMiddlewareOptions extends Omit<FitMessagesOptions, 'shape' | 'tools'> {
  /** The middleware's name (LangChain wants each middleware of an agent named apart). Default `gsscFit`. */
  readonly name?: string
  /** Whose rule counts the request's tools; default: Anthropic's for a Claude `model`, else OpenAI's. */
  readonly toolFormat?: ToolFormat
  /** Called with each call's fit: what was dropped or cut, by the indexes of the state's messages. */
  readonly onFit?: (fit: ModelCallFit<unknown>) => void
}

/** A model request, as far as fitting needs it (LangChain's `ModelRequest`). */
export interface LangChainModelRequest<M> {
  readonly messages: ReadonlyArray<M>
  readonly systemMessage?: M
  readonly tools?: ReadonlyArray<unknown>
}

/** The middleware: pass it to `createMiddleware` (or straight into `createAgent`'s `middleware`). */
export interface FitMiddleware {
  readonly name: string
  readonly wrapModelCall: <R extends LangChainModelRequest<unknown>, A>(request: R, handler: (request: R) => A | PromiseLike<A>) => Promise<A>
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A system message without text: LangChain's default when no system prompt was given, which it does not send. */
const isEmpty = (m: unknown): boolean => {
  const { text, content } = (typeof m === 'object' && m !== null ? m : {}) as { readonly text?: unknown; readonly content?: unknown }
  return typeof text === 'string' ? text === '' : content === undefined || content === '' || (Array.isArray(content) && content.length === 0)
}

/** An empty message of the same class as `m` (the system prompt, when dropped). */
const emptyLike = (m: unknown): unknown => new (Object.getPrototypeOf(m).constructor as new (fields: object) => unknown)({ content: '' })

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A middleware whose `wrapModelCall` fits each model call's messages, with its system message
 * and tools, to `maxTokens − reserve` (see the module comment). The call rejects with a
 * `GsscError` naming what could not be read or fitted.
 *
 * @example
 * import { createAgent, createMiddleware } from 'langchain'
 * import { fitMiddleware } from 'gssc/integrations'
 * const agent = createAgent({ model, tools, middleware: [createMiddleware(fitMiddleware({ model: 'gpt-4o', maxTokens: 8000 }))] })
 * @category constructors
 * @since 0.2.0
 */
export const fitMiddleware = (options: FitMiddlewareOptions): FitMiddleware => {
  const { name, toolFormat, onFit, ...fitOptions } = options
  const format = toolFormat ?? toolFormatOf(options.model ?? options.tokenizer?.model)
  return {
    name: name ?? 'gsscFit',
    wrapModelCall: async (request, handler) => {
      const tools = request.tools === undefined || request.tools.length === 0 ? undefined : request.tools
      const system = request.systemMessage === undefined || isEmpty(request.systemMessage) ? undefined : request.systemMessage
      const fit = await toPromise(
        pipe(
          tools === undefined ? TE.right<InputError, ReadonlyArray<object> | undefined>(undefined) : langChainToolDefinitions(tools, format, 'request.tools'),
          TE.chainW((definitions) => fitModelCallTE<unknown>(system, request.messages, { ...fitOptions, shape: 'langchain', ...(definitions === undefined ? {} : { tools: definitions }) })),
        ),
      )
      onFit?.(fit)
      return handler({ ...request, messages: fit.messages, ...(fit.systemChanged ? { systemMessage: fit.system ?? emptyLike(system) } : {}) })
    },
  }
}
