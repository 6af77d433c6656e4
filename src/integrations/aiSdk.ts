/**
 * Vercel AI SDK: a `prepareStep` that fits every step of a `generateText` / `streamText` /
 * `ToolLoopAgent` tool loop to the budget.
 *
 * ```ts
 * const result = await generateText({ model, system, messages, tools, stopWhen: stepCountIs(20),
 *   prepareStep: fitStep({ model: 'gpt-4o', maxTokens: 8000, reserve: 1000, system, tools }) })
 * ```
 *
 * A tool loop grows its messages by a call and a result per step, and sends them all, with
 * the system prompt and the tools, on every step. `prepareStep` is the SDK's own hook for
 * replacing a step's messages: `fitStep` fits them with `fitMessages` (newest turns kept, a
 * tool call and its result kept or dropped together, an oversized result cut) and returns
 * them. `prepareStep` is not handed the system prompt nor the tools, so they are given to
 * `fitStep` too: both are counted; the system prompt is handed back only when it had to be
 * cut. Nothing of `ai` is imported at run time: the step's messages pass through typed as
 * the SDK's own.
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { InputError } from '../error.js'
import type { FitMessagesOptions } from '../fit/fitMessages.js'
import { toPromise } from '../promise.js'
import { fitModelCallTE, type ModelCallFit } from './modelCall.js'
import { aiSdkToolDefinitions, toolFormatOf, type ToolFormat } from './tools.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The AI SDK's system prompt: a string, or a system message (with its provider options). */
export type AISDKSystem = string | { readonly role: 'system'; readonly content: string }

/** Options of {@link fitStep}: those of `fitMessages`, and what `prepareStep` is not handed. */
export interface FitStepOptions<S extends AISDKSystem = string> extends Omit<FitMessagesOptions, 'shape' | 'tools'> {
  /** The `system` given to `generateText` / `streamText`: counted on every step. */
  readonly system?: S
  /** The `tools` given to `generateText` / `streamText` (the SDK's map of tools): counted on every step. */
  readonly tools?: Readonly<Record<string, unknown>>
  /** Whose rule counts the tools; default: Anthropic's for a Claude `model`, else OpenAI's. */
  readonly toolFormat?: ToolFormat
  /** Called with each step's fit: what was dropped or cut, by the step's message indexes. */
  readonly onFit?: (fit: ModelCallFit<unknown>, stepNumber: number) => void
}

/** What `prepareStep` is handed, as far as fitting needs it. */
export interface AISDKStep<M> {
  readonly messages: ReadonlyArray<M>
  readonly stepNumber?: number
}

/** What the function returns: a `PrepareStepResult`. `system` only when it was cut (`[]`: dropped). */
export interface FitStepResult<M, S> {
  messages: M[]
  system?: S | []
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * A `prepareStep` function that fits each step's messages, with the system prompt and the
 * tools, to `maxTokens − reserve` (see the module comment). It rejects, and so does the
 * step, with a `GsscError` naming what it could not read or fit.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai'
 * import { fitStep } from 'gssc/integrations'
 * await generateText({ model, system, messages, tools, stopWhen: stepCountIs(20), prepareStep: fitStep({ model: 'gpt-4o', maxTokens: 8000, system, tools }) })
 * @category constructors
 * @since 0.2.0
 */
export const fitStep =
  <S extends AISDKSystem = string>(options: FitStepOptions<S>) =>
  async <M>(step: AISDKStep<M>): Promise<FitStepResult<M, S>> => {
    const { system, tools, toolFormat, onFit, ...fitOptions } = options
    const format = toolFormat ?? toolFormatOf(options.model ?? options.tokenizer?.model)
    const systemMessage = system === undefined ? undefined : typeof system === 'string' ? { role: 'system' as const, content: system } : system
    const fit = await toPromise(
      pipe(
        tools === undefined ? TE.right<InputError, ReadonlyArray<object> | undefined>(undefined) : aiSdkToolDefinitions(tools, format),
        TE.chainW((definitions) => fitModelCallTE<unknown>(systemMessage, step.messages, { ...fitOptions, shape: 'ai-sdk', ...(definitions === undefined ? {} : { tools: definitions }) })),
      ),
    )
    onFit?.(fit, step.stepNumber ?? 0)
    const messages = fit.messages as M[]
    if (!fit.systemChanged) return { messages }
    const kept = fit.system as { readonly content: string } | undefined
    return { messages, system: kept === undefined ? [] : ((typeof system === 'string' ? kept.content : kept) as S) }
  }
