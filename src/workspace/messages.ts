/**
 * The seed's message helpers, as functions over plain OpenAI-shaped objects: build a turn
 * (`[system, …history, current]`), then grow it through a tool loop with
 * `addAssistantMessage` and `addToolResult`. Each returns a new array; inputs are never
 * mutated.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import { imagePart, type MediaOptions } from './media.js'
import type { Workspace } from './model.js'
import type { OpenAIImagePart, OpenAIToolCall } from '../render/wire.js'
import type { TurnAssistantMessage, TurnCustomToolCall, TurnMessage, TurnSystemMessage, TurnToolMessage, TurnUserMessage } from './openai.js'
import type { PromptOptions } from './options.js'
import { buildSystemPrompt, type SystemPrompt } from './prompt.js'
import { workspaceReport } from './report.js'
import type { Report } from '../report.js'

/** One turn's input, as the seed's `build_messages` takes it. */
export interface TurnInput<H = TurnMessage> {
  /** Earlier messages, passed through as they are (trim them before, or use the pipeline). */
  readonly history: ReadonlyArray<H>
  readonly currentMessage: string
  /** Skills whose whole body goes into the system prompt for this turn. */
  readonly skillNames?: ReadonlyArray<string>
  /** Local image files (relative to the workspace, or absolute inside it or a `mediaRoots` folder). */
  readonly media?: ReadonlyArray<string>
  /** With `chatId`, noted in the system prompt as `## Current Session`. */
  readonly channel?: string
  readonly chatId?: string
}

/** The messages of a turn and the report of its system prompt. */
export interface Turn<H = TurnMessage> {
  readonly messages: Array<TurnSystemMessage | H | TurnUserMessage>
  readonly system: SystemPrompt
  /** The system prompt's fitting in the one report vocabulary: `explain(turn)` and `renderReport(turn)` read it. */
  readonly report: Report<string>
}

/**
 * The messages of a turn, `[system, …history, current]`, and the report of how its system
 * prompt was fitted (which file was cut or left out, and why). The current message is a
 * string, or with media, the images (in order) then one text part. Fails on an invalid option
 * or any unusable image. {@link buildMessages} is the same without the report. It composes
 * the workspace prompt (`buildSystemPrompt`, the one fitting engine) with the turn's messages;
 * `report` is the prompt's report for `explain` and the HTML report.
 *
 * @example
 * const turn = await buildTurn(ws, { history: [], currentMessage: 'What is in this chart?', media: ['images/chart.png'] }, { tokenizer })()
 * // Right({ messages: [{ role: 'system', … }, { role: 'user', content: [{ type: 'image_url', … }, { type: 'text', text: 'What is in this chart?' }] }], system: … })
 * @category constructors
 * @since 0.1.0
 */
export const buildTurn =
  <H = TurnMessage>(ws: Workspace, input: TurnInput<H>, options: PromptOptions & MediaOptions): TE.TaskEither<GsscError, Turn<H>> =>
  async () => {
    const system = buildSystemPrompt(ws, {
      ...options,
      ...(input.skillNames === undefined ? {} : { skillNames: input.skillNames }),
      ...(input.channel === undefined ? {} : { channel: input.channel }),
      ...(input.chatId === undefined ? {} : { chatId: input.chatId }),
    })
    if (E.isLeft(system)) return system
    const images: OpenAIImagePart[] = []
    for (const path of input.media ?? []) {
      const part = await imagePart(ws.root, path, options)
      if (E.isLeft(part)) return part
      images.push(part.right)
    }
    const current: TurnUserMessage = {
      role: 'user',
      content: images.length === 0 ? input.currentMessage : [...images, { type: 'text', text: input.currentMessage }],
    }
    return E.right({
      messages: [{ role: 'system', content: system.right.prompt }, ...input.history, current],
      system: system.right,
      report: workspaceReport(system.right, options.tokenizer, ws.root),
    })
  }

/**
 * The seed's `build_messages`: `[system, …history, current]`, in OpenAI shapes (see
 * {@link buildTurn} for the same with the system prompt's report).
 *
 * @example
 * const messages = await buildMessages(ws, { history, currentMessage: 'Hi', channel: 'cli', chatId: 'direct' }, { tokenizer })()
 * @category constructors
 * @since 0.1.0
 */
export const buildMessages = <H = TurnMessage>(
  ws: Workspace,
  input: TurnInput<H>,
  options: PromptOptions & MediaOptions,
): TE.TaskEither<GsscError, Turn<H>['messages']> => TE.map((turn: Turn<H>) => turn.messages)(buildTurn(ws, input, options))

/**
 * Appends a tool's result: `{ role: 'tool', tool_call_id, name, content }`.
 *
 * @example
 * addToolResult(messages, 'call_1', 'read_file', '# Weather\n…') // [...messages, { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: '# Weather\n…' }]
 * @category utils
 * @since 0.1.0
 */
export const addToolResult = <M>(messages: ReadonlyArray<M>, toolCallId: string, toolName: string, result: string): Array<M | TurnToolMessage> => [
  ...messages,
  { role: 'tool', tool_call_id: toolCallId, name: toolName, content: result },
]

/**
 * A tool call to record: as the OpenAI SDK returns it (function or custom tool), or
 * `{ id, name, arguments }` with decoded arguments.
 */
export type ToolCallInput = OpenAIToolCall | TurnCustomToolCall | { readonly id: string; readonly name: string; readonly arguments: unknown }

/**
 * Appends the assistant's reply: `content` only when non-empty, `tool_calls` only when there
 * are some (arguments JSON-encoded), `reasoning_content` only when non-empty.
 *
 * @example
 * addAssistantMessage(messages, '', [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.md' } }])
 * // [...messages, { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } }] }]
 * @category utils
 * @since 0.1.0
 */
export const addAssistantMessage = <M>(
  messages: ReadonlyArray<M>,
  content: string | null | undefined,
  toolCalls?: ReadonlyArray<ToolCallInput> | null,
  reasoning?: string | null,
): Array<M | TurnAssistantMessage> => [
  ...messages,
  {
    role: 'assistant',
    ...(content ? { content } : {}),
    ...(toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls.map(toOpenAIToolCall) } : {}),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
  },
]

const toOpenAIToolCall = (call: ToolCallInput): OpenAIToolCall | TurnCustomToolCall =>
  'function' in call || 'custom' in call
    ? call
    : {
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}) },
      }
