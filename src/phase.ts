/**
 * The data that flows through the pipeline, one type per phase:
 * `Request → Gathered → Selected → Structured → Built`. Each phase carries a literal
 * `_phase` tag, so composing stages in the wrong order fails to compile.
 *
 * @module
 */
import type { ContentKind, Removal } from './compress/content/model.js'
import type { Config } from './config.js'
import type { Finding } from './render/finding.js'
import type { ChatMessage, ImagePart, Part, Role } from './message.js'
import type { Packet, PacketInput } from './packet.js'
import type { Vectors } from './select/embed.js'
import type { Scores } from './select/score.js'
import type { PrefixFingerprint } from './report/prefix.js'
import type { Document } from './structure/document.js'
import type { Structurer } from './structure/structurer.js'
import type { Meter } from './tokenize/meter.js'
import type { Tokenizer } from './tokenize/tokenizer.js'

// -------------------------------------------------------------------------------------
// input
// -------------------------------------------------------------------------------------

/** A history turn as users usually hold it: a role and text (or parts), optionally a time. */
export interface SimpleMessage {
  readonly role: Role
  readonly content: string | ReadonlyArray<Part>
  /** Epoch milliseconds, or an ISO-8601 string. */
  readonly timestamp?: number | string
  readonly name?: string
}

/**
 * A history in an SDK's own shape: OpenAI Chat Completions messages or Responses items,
 * Anthropic `MessageParam`s, AI SDK `ModelMessage`s or LangChain messages. The build reads it
 * with the adapters in `src/adapters` (every tool call and result kept), before any gatherer.
 */
export type SdkHistory = ReadonlyArray<object>

/** What a build starts from. */
export interface Request {
  /** The current user query (the task). */
  readonly query: string
  /** System instructions: one text, or several (each becomes a P0 packet). */
  readonly instructions?: string | ReadonlyArray<string>
  /** The conversation so far, oldest first: gssc turns, or the messages of an SDK ({@link SdkHistory}). */
  readonly history?: ReadonlyArray<SimpleMessage | ChatMessage> | SdkHistory
  /** Extra packets (state, evidence, custom content) to consider. */
  readonly packets?: ReadonlyArray<PacketInput>
  /** Images sent with the query; chat formats put them first in the final user turn. */
  readonly media?: ReadonlyArray<ImagePart>
}

// -------------------------------------------------------------------------------------
// report parts
// -------------------------------------------------------------------------------------

/** A gatherer that failed or timed out (when the build continues past failures). */
export interface GatherFailure {
  readonly gatherer: string
  readonly reason: 'error' | 'timeout'
  readonly message: string
}

/**
 * Why something is not in the output: the one "left out" vocabulary of every builder (the
 * core build, the session strategies, the chunk, conversation and workspace builders,
 * `fitMessages`). A builder that can only leave things out for some reasons names its subset
 * with `Extract` (`DropReason`, `ChunkExclusionReason`), so the words never drift apart.
 */
export type ExclusionReason =
  // the core build
  | 'below_min_relevance'
  | 'over_budget'
  | 'truncated'
  | 'summarized'
  | 'not_in_layout'
  | 'duplicate_id'
  | 'gatherer_failure'
  /** Older history turns beyond `maxHistoryMessages` (or the history gatherer's limit, or a stored conversation's `settings.maxMessages`). */
  | 'history_limit'
  /** A team9 chunk present in `chunks` but missing from `chunkIds`: not part of the context. */
  | 'unlisted'
  /** Left out by the source's own rule (a stored message marked `includeInContext: false`). */
  | 'filtered'
  /** Its type's cap (`config.types.<type>.cap`) was full. */
  | 'type_cap'
  /** It would have fitted in the room other types' floors (`config.types.<type>.floor`) hold. */
  | 'type_floor'
  // history fitting (the session strategies, `fitMessages`)
  /** Beyond `keepRecentCount`, the number of recent turns kept verbatim. */
  | 'keep_recent_count'
  /** A tool result with no call before it. */
  | 'orphan_result'
  /** Meant for a summary the summarizer failed to write. */
  | 'summary_failed'
  /** An assistant turn before the first kept user turn (Anthropic's turns open on a user turn). */
  | 'opens_with_assistant'
  // the chunk builder's filters (seed 000)
  /** `includeOnlyChunkIds` was given and does not list it. */
  | 'not_in_include_list'
  /** Its chunk type is in `excludeTypes`. */
  | 'excluded_type'
  /** A SYSTEM chunk, with `includeSystem: false`. */
  | 'system_excluded'
  /** An ENVIRONMENT chunk, with `includeEnvironment: false`. */
  | 'environment_excluded'
  /** It rendered to nothing. */
  | 'empty'
  // caps of the layout (the workspace prompt)
  /** Its own cap (a workspace file's per-file cap) cannot hold it. */
  | 'item_cap'
  /** Its section's token cap (the workspace history block) has no room for it. */
  | 'section_cap'
  // the workspace's own parts
  /** A file the layout expects is not there. */
  | 'missing'
  /** An always-on skill whose requirements are not met. */
  | 'unavailable'
  /** The agent version being matched does not show it. */
  | 'ignored'
  /** A bundled skill hidden by the workspace's own of that name. */
  | 'shadowed'

/**
 * Something left out (a packet, a chunk, a turn, a workspace part; for `gatherer_failure`, a
 * gatherer), and why. `R` narrows the reasons a builder can give.
 */
export interface Exclusion<R extends ExclusionReason = ExclusionReason> {
  readonly id: string
  readonly reason: R
  readonly detail?: string
}

/**
 * What a cut took out of one text, knowing what the text is: the kind it was taken for
 * (`text`: none known) and each removal (`ArrayItems`, `RepeatedLines`, `Body`, …; `Cut`:
 * cut by position). The per-item cap gives one for every text it cuts; the report carries
 * them with the truncation.
 */
export interface ContentCut {
  readonly kind: ContentKind
  readonly removed: ReadonlyArray<Removal>
}

/** A note a builder itself makes about a build that still succeeded (the `message` says it in words). */
export type Notice =
  | { readonly _tag: 'NoQueryKeywords'; readonly message: string }
  | { readonly _tag: 'InstructionsTruncated'; readonly packetId: string; readonly keptTokens: number; readonly originalTokens: number; readonly message: string }
  | { readonly _tag: 'InstructionsDropped'; readonly packetId: string; readonly message: string }
  | { readonly _tag: 'DuplicateId'; readonly packetId: string; readonly message: string }
  | { readonly _tag: 'NothingFits'; readonly message: string }
  /**
   * A source a gatherer read had a problem it worked around (a session file's skipped line,
   * a workspace skill that cannot be used, a repaired turn): said once, with where.
   */
  | { readonly _tag: 'SourceProblem'; readonly source: string; readonly line?: number; readonly message: string }

/**
 * Something the caller should know about a build that still succeeded: the one vocabulary of
 * non-fatal findings of every builder. A builder's own notes ({@link Notice}, with a
 * `message`), and the changes the provider renderers make so a request is accepted
 * (`Finding`: where, by index, and for builders that know it, the item's `id`). Say any of
 * them in words with `describeWarning` (`gssc/inspect`).
 */
export type Warning = Notice | Finding

/** A packet the selector kept, with its token count and scores. */
export interface Selection {
  readonly packet: Packet
  readonly tokens: number
  readonly scores: Scores
  /**
   * Where the packet is among the gathered packets (`Gathered.packets`), when the selector
   * knows it: layouts that keep input order read it here instead of looking for the packet
   * among thousands it left out (`inputOrder`).
   */
  readonly at?: number
}

// -------------------------------------------------------------------------------------
// phases
// -------------------------------------------------------------------------------------

/** What every stage can use: validated config, the tokenizer, the build's meter and clock. */
export interface Env {
  readonly config: Config
  /** `availableTokens(config)`: the hard limit on the output. */
  readonly available: number
  readonly tokenizer: Tokenizer
  readonly meter: Meter
  /** The build's clock, epoch milliseconds. */
  readonly now: number
  /**
   * The build's layout, given once (`gather`'s `layout` option): `select()` leaves room for
   * it and `structure()` lays the selection out with it, unless given another.
   */
  readonly layout: Structurer
  /** The previous build's prefix, to report what of this build's output it already sent (`gather`'s `previous`). */
  readonly previous?: PrefixFingerprint
}

/** After gathering: every candidate packet, plus gatherers that failed. */
export interface Gathered {
  readonly _phase: 'gathered'
  readonly request: Request
  readonly env: Env
  readonly packets: ReadonlyArray<Packet>
  readonly failures: ReadonlyArray<GatherFailure>
  readonly excluded: ReadonlyArray<Exclusion>
  readonly warnings: ReadonlyArray<Warning>
  /** The query's and the ranked candidates' embeddings, when the build was given `embed`. */
  readonly vectors?: Vectors
}

/** After selection: what is kept, what is not and why, and every packet's scores. */
export interface Selected extends Omit<Gathered, '_phase'> {
  readonly _phase: 'selected'
  readonly selected: ReadonlyArray<Selection>
  readonly scores: ReadonlyMap<string, Scores>
  /** What the selector found of each packet by its place among `packets`, where it knows the places: see {@link Places}. */
  readonly places?: Places
}

/**
 * A selector's findings by each packet's place in `packets` (the array it judged): its
 * scores, and the exclusion the selector itself gave it (gated out, or left out by the fill),
 * which are `excluded` from `from` on. The report reads them by place instead of looking each
 * of a build's thousands of packets up by id; `scores` and `excluded` say the same.
 */
export interface Places {
  readonly packets: ReadonlyArray<Packet>
  readonly scores: ReadonlyArray<Scores>
  readonly excluded: ReadonlyArray<Exclusion | undefined>
  /** Where in `excluded` the selector's own exclusions start. */
  readonly from: number
}

/** After structuring: the layout, still as data. */
export interface Structured extends Omit<Selected, '_phase'> {
  readonly _phase: 'structured'
  readonly doc: Document
}
