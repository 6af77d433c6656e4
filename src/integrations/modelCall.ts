/**
 * One model call of an agent loop, fitted: the system prompt and the messages the SDK is about
 * to send, plus the tools it sends with them, within `maxTokens`. The integrations (AI SDK,
 * LangChain) are this, called with what each SDK hands its hook.
 *
 * The SDKs keep the system prompt apart from the messages (the AI SDK's `system`, LangChain's
 * `systemMessage`), but the model pays for it on every call, so it is fitted as the first
 * message (`fitMessages` keeps it first and whole unless it alone is over the item cap) and
 * handed back apart. Places in the result are the messages' own indexes, and `'system'` for
 * the system prompt, as for Anthropic's top-level `system`.
 *
 * @module
 */
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Source } from '../adapters/shape.js'
import type { GsscError } from '../error.js'
import { fitMessagesTE, type FitMessagesOptions, type FitMessagesResult, type InputPlace } from '../fit/fitMessages.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** What {@link fitModelCallTE} gives: the fitted messages, and the system prompt apart. */
export interface ModelCallFit<M> extends FitMessagesResult<M[]> {
  /** The system message as fitted: the one given unless it was cut (`undefined`: none given, or dropped). */
  readonly system: M | undefined
  /** True when the system message was cut or dropped, so the SDK must be handed the fitted one. */
  readonly systemChanged: boolean
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** A place in [system, ...messages] as a place in the messages: index 0 is the system prompt. */
const shift = (s: Source, hasSystem: boolean): Source => (!hasSystem || typeof s !== 'number' ? s : s === 0 ? 'system' : s - 1)

const shiftPlace = <P extends InputPlace>(p: P, hasSystem: boolean): P =>
  !hasSystem ? p : { ...p, index: shift(p.index, true), ...(p.through === undefined ? {} : { through: p.through - 1 }) }

// -------------------------------------------------------------------------------------
// the fit
// -------------------------------------------------------------------------------------

/**
 * Fits `system` (when given) and `messages` of one model call, in the shape `options.shape`
 * names (see the module comment). A `Left` is the `GsscError` of `fitMessages`.
 *
 * @example
 * const fit = await fitModelCallTE({ role: 'system', content: 'Be terse.' }, messages, { model: 'gpt-4o', maxTokens: 8000, shape: 'ai-sdk', tools })()
 * // Right({ messages, system, systemChanged: false, tokenCount, dropped, cut, … })
 * @category fit
 * @since 0.2.0
 */
export const fitModelCallTE = <M>(system: M | undefined, messages: ReadonlyArray<M>, options: FitMessagesOptions): TE.TaskEither<GsscError, ModelCallFit<M>> => {
  const hasSystem = system !== undefined
  return TE.map((fitted: FitMessagesResult<M[]>): ModelCallFit<M> => {
    // kept, the system prompt is the first message (the layout keeps it first)
    const systemAt = hasSystem && fitted.sources[0] === 0 ? 0 : -1
    const kept = systemAt < 0 ? undefined : fitted.messages[systemAt]
    return {
      ...fitted,
      messages: fitted.messages.filter((_, i) => i !== systemAt),
      sources: fitted.sources.filter((_, i) => i !== systemAt).map((s) => (s === undefined ? s : shift(s, hasSystem))),
      dropped: fitted.dropped.map((d) => shiftPlace(d, hasSystem)),
      cut: fitted.cut.map((c) => shiftPlace(c, hasSystem)),
      system: kept,
      systemChanged: hasSystem && (kept === undefined || fitted.cut.some((c) => c.index === 0)),
    }
  })(fitMessagesTE<M[]>(hasSystem ? [system, ...messages] : [...messages], options))
}
