/**
 * The conversation builder's own input and output types (seed 001). As the seed's dependency
 * rule says, this module depends on no caller's types: callers map their agent definitions,
 * workflow engines and stored messages onto these.
 *
 * @module
 */
import type { ChatMessage } from '../message.js'
import type { Finding } from '../render/finding.js'
import type { OpenAIOptions } from '../render/options.js'
import type { OpenAIMessage } from '../render/wire.js'
import type { Report } from '../report.js'
import type { PromptTemplates } from './templates.js'

/** `chat`: a conversation; `agent`: a named agent with a persona and tools; `run`: one step of a workflow run. */
export type SessionMode = 'chat' | 'agent' | 'run'

/** All session modes. */
export const SESSION_MODES: ReadonlyArray<SessionMode> = ['chat', 'agent', 'run']

/** Who the model is (callers map their agent definitions onto this). */
export interface AgentInfo {
  readonly id: string
  readonly name: string
  readonly role: string
  readonly identity?: string
  readonly communicationStyle?: string
  readonly principles?: ReadonlyArray<string>
  /** A precompiled system prompt: when it has any non-blank text it replaces the persona section. */
  readonly systemPrompt?: string
}

/** Which tools the model may use (callers map their tool policies onto this). */
export interface ToolPolicyConfig {
  /** e.g. `['fs', 'project', 'ui']` */
  readonly allowedCategories?: ReadonlyArray<string>
  readonly deniedCategories?: ReadonlyArray<string>
  readonly allowedTools?: ReadonlyArray<string>
  readonly deniedTools?: ReadonlyArray<string>
  /** Free-text rules, one per line. */
  readonly customRules?: ReadonlyArray<string>
}

/** A way out of the current workflow step. */
export interface RunEdge {
  readonly label: string
  readonly targetNodeId: string
  readonly isDefault?: boolean
}

/** Where a workflow run stands (callers map their execution engine's state onto this). */
export interface RunContext {
  readonly packageName: string
  readonly workflowName: string
  readonly currentStep: { readonly id: string; readonly name: string; readonly instruction: string }
  readonly state?: {
    readonly variables?: Readonly<Record<string, unknown>>
    readonly stepsCompleted?: ReadonlyArray<string>
    readonly artifacts?: ReadonlyArray<string>
  }
  readonly graph?: { readonly outgoingEdges?: ReadonlyArray<RunEdge> }
}

/** A tool call stored with an assistant message; `arguments` as OpenAI stores it (a JSON string) or decoded. */
export interface ConversationToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: string | Readonly<Record<string, unknown>>
}

/** One stored conversation message. */
export interface ConversationMessage {
  readonly id?: string
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content: string
  /** `false` keeps the message in the history but out of the model's context. */
  readonly includeInContext?: boolean
  /** Assistant messages: the tools it called. */
  readonly toolCalls?: ReadonlyArray<ConversationToolCall>
  /** Tool messages: the call this answers (required). */
  readonly toolCallId?: string
  /** Tool messages: the tool's name. */
  readonly toolName?: string
  /** Tool messages: the tool failed. */
  readonly isError?: boolean
  /** A display name (OpenAI's `name`). */
  readonly name?: string
  /** Epoch milliseconds. */
  readonly createdAt?: number
}

/** What {@link buildLlmMessagesFromConversation} takes. */
export interface ContextBuildOptions {
  /** The stored conversation. */
  readonly messages: ReadonlyArray<ConversationMessage>
  readonly mode: SessionMode
  /** Agent and run modes: who the model is. */
  readonly agent?: AgentInfo
  readonly toolPolicy?: ToolPolicyConfig
  /** Run mode: the workflow step. */
  readonly runContext?: RunContext
  readonly settings?: {
    /** Put the composed system prompt first. Default true. */
    readonly includeSystemPrompt?: boolean
    /** Keep at most this many of the newest conversation messages (after filtering), without orphaning tool results. */
    readonly maxMessages?: number
  }
  /** The prompt templates; default: the files shipped in the package's `templates/`. */
  readonly templates?: PromptTemplates
  /** How to render for OpenAI (e.g. `systemRole: 'developer'`). */
  readonly openai?: OpenAIOptions
}

/** What {@link buildLlmMessagesFromConversation} returns. */
export interface ContextBuildResult {
  /** OpenAI Chat Completions messages, ready to send. */
  readonly messages: Array<OpenAIMessage>
  /** The same conversation as neutral messages, for `toAnthropic` or `toText`. */
  readonly chat: ReadonlyArray<ChatMessage>
  /** Repairs the OpenAI renderer made (`index` is into `chat`). */
  readonly findings: ReadonlyArray<Finding>
  readonly metadata: {
    /** `messages.length` of the input. */
    readonly inputCount: number
    /** Messages in the output, the system prompt and any repairs included. */
    readonly outputCount: number
    /** Input messages left out by `includeInContext: false` (stored system messages are skipped without being counted, as in the seed). */
    readonly filteredCount: number
    /** Input messages left out by `settings.maxMessages`. */
    readonly trimmedCount: number
    readonly systemPromptIncluded: boolean
    /** Characters (UTF-16 code units) of the system prompt; 0 when it is not included. */
    readonly systemPromptLength: number
  }
  /** The build in the one report vocabulary: `explain(result)` and `renderReport(result)` read it (tokens estimated). */
  readonly report: Report<ReadonlyArray<OpenAIMessage>>
}
