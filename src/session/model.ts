/**
 * The session model: what every supported file format is read into.
 *
 * A session file is a tree of entries linked by parent ids. Each format adapter turns its
 * lines into {@link Entry} values whose {@link EntryBody} says what the entry contributes to
 * a model's context: chat messages, a compaction, a setting change, or nothing (structure
 * only). Everything after loading (walking a branch, rebuilding the context, fitting a
 * budget) works on this model and never looks at the raw lines again.
 *
 * @module
 */
import type { ChatMessage } from '../message.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The formats gssc reads:
 * - `pi`: pi coding-agent sessions, versions 1–3;
 * - `claude-code`: Claude Code transcripts (`~/.claude/projects/…/<session>.jsonl`);
 * - `seed`: the design document's own `{id, parentId, timestamp, type, content}` lines.
 */
export type SessionFormat = 'pi' | 'claude-code' | 'seed'

/** All formats, in detection order. */
export const SESSION_FORMATS: ReadonlyArray<SessionFormat> = ['pi', 'claude-code', 'seed']

/** A problem with one line (or one entry) of a session file. `line` is 1-based. */
export interface Diagnostic {
  readonly file: string
  readonly line: number
  readonly reason: string
}

/**
 * Where a context message came from:
 * - `message`: an ordinary stored turn;
 * - `custom`: an extension's message (pi `custom_message`, v2 `hookMessage`), sent as user text;
 * - `bashExecution`: a command the user ran in pi with `!`, sent as user text;
 * - `compactionSummary` / `branchSummary`: a summary standing in for older or abandoned turns;
 * - `meta`: a Claude Code `isMeta` user line (injected by the tool, hidden in its UI);
 * - `localCommand`: a Claude Code `system` line of subtype `local_command` (a `/model` or
 *   `/mcp` command line and its output), which Claude Code sends as user text;
 * - `synthetic`: a turn the agent itself adds when it resumes (Claude Code's
 *   "No response requested." and "Continue from where you left off.").
 */
export type MessageKind = 'message' | 'custom' | 'bashExecution' | 'compactionSummary' | 'branchSummary' | 'meta' | 'localCommand' | 'synthetic'

/** What an entry contributes to a context. */
export type EntryBody =
  | {
      readonly _tag: 'Message'
      readonly kind: MessageKind
      /** Usually one; a Claude Code user line holding several tool results gives several. */
      readonly messages: ReadonlyArray<ChatMessage>
      /**
       * Consecutive assistant entries with equal keys on a branch are one model response
       * (Claude Code writes one line per content block). `^` joins any assistant turn just
       * before it (the seed format's `tool_call` lines).
       */
      readonly mergeKey?: string
    }
  | {
      readonly _tag: 'Compaction'
      readonly summary: string
      /** Absent when a v1 `firstKeptEntryIndex` pointed at the header or past the file. */
      readonly firstKeptEntryId?: string
      readonly tokensBefore: number
    }
  | { readonly _tag: 'BranchSummary'; readonly summary: string; readonly fromId: string }
  | { readonly _tag: 'ModelChange'; readonly provider: string; readonly modelId: string }
  | { readonly _tag: 'ThinkingLevelChange'; readonly thinkingLevel: string }
  | { readonly _tag: 'Label'; readonly targetId: string; readonly label?: string }
  | { readonly _tag: 'SessionInfo'; readonly name?: string }
  /**
   * A Claude Code `compact_boundary`: a branch walk stops here, as at a root.
   * `logicalParentId` is the last line before the compaction (the human transcript goes on there).
   */
  | { readonly _tag: 'Boundary'; readonly logicalParentId?: string }
  /** In the tree, contributes nothing (pi `custom`, Claude Code `progress`, sidechain lines…). */
  | { readonly _tag: 'Other'; readonly type: string }

/** One node of the session tree. */
export interface Entry {
  readonly id: string
  readonly parentId: string | null
  /** 1-based line in the file. */
  readonly line: number
  /** Epoch milliseconds, when the line had a readable timestamp. */
  readonly timestamp?: number
  readonly body: EntryBody
  /**
   * May this entry be the default leaf? Every entry in pi and seed files; in Claude Code
   * transcripts the lines Claude Code keeps as messages (user, assistant, system,
   * attachment), not progress lines.
   */
  readonly leafCandidate: boolean
  /**
   * The conversation the entry belongs to when it is not the main one: a Claude Code
   * subagent's lines (`isSidechain`) carry `sidechain:<agentId>` (or `sidechain`). A branch
   * is rebuilt from the lines of its leaf's thread only.
   */
  readonly thread?: string
}

/** An entry, with the timestamp left out when unknown. */
export const entry = (
  link: { readonly id: string; readonly parentId: string | null },
  line: number,
  timestamp: number | undefined,
  body: EntryBody,
  leafCandidate: boolean,
  thread?: string,
): Entry => {
  // built field by field, not with spreads: this runs once per line of every file read
  const e: { -readonly [K in keyof Entry]: Entry[K] } = { id: link.id, parentId: link.parentId, line, body, leafCandidate }
  if (timestamp !== undefined) e.timestamp = timestamp
  if (thread !== undefined) e.thread = thread
  return e
}

/** A loaded session: entries indexed once, plus what the file says about itself. */
export interface LoadedSession {
  readonly file: string
  readonly format: SessionFormat
  /** pi format version after reading the header (1, 2 or 3); absent for other formats. */
  readonly version?: number
  /** pi's header line as read (`type: "session"`), if any. */
  readonly header?: Readonly<Record<string, unknown>>
  /** Entries in file order; ids are unique (the first line with an id wins). */
  readonly entries: ReadonlyArray<Entry>
  readonly byId: ReadonlyMap<string, Entry>
  /** The leaf a build uses when none is given; null for a file without entries. */
  readonly defaultLeaf: string | null
  /** pi labels by target entry id (the latest label entry wins; an empty label clears). */
  readonly labels: ReadonlyMap<string, string>
  /** Display name: pi's latest `session_info.name`. */
  readonly name?: string
  /** Claude Code `summary` lines whose `leafUuid` is in the file, by leaf id. */
  readonly titles: ReadonlyMap<string, string>
  readonly diagnostics: ReadonlyArray<Diagnostic>
}

/** One message of a rebuilt context, with the entry it came from. */
export interface ContextMessage {
  /** The entry that produced it (the first one, when several lines were merged). */
  readonly entryId: string
  readonly kind: MessageKind
  readonly message: ChatMessage
  /** The response id it belongs to (Claude Code `message.id`), when lines may be merged. */
  readonly mergeKey?: string
}

/** The model in use, pi style: set by `model_change` entries and by every assistant turn. */
export interface ModelRef {
  readonly provider: string
  readonly modelId: string
}

/** A setting change found on a branch. */
export type SettingChange =
  | { readonly _tag: 'ModelChange'; readonly entryId: string; readonly timestamp?: number; readonly model: ModelRef }
  | { readonly _tag: 'ThinkingLevelChange'; readonly entryId: string; readonly timestamp?: number; readonly thinkingLevel: string }

/**
 * A line the agent itself leaves out when it rebuilds a branch (Claude Code's resume
 * filters), reported so that nothing disappears without a word:
 * - `unresolvedToolUse`: an assistant line whose every tool call has no result anywhere on the branch;
 * - `thinkingOnly`: an assistant line holding only thinking, with no other line of its response;
 * - `whitespaceOnly`: an assistant line holding only blank text;
 * - `apiError`: an API error Claude Code wrote as an assistant line;
 * - `attachment`: an attachment line (Claude Code sends it as `<system-reminder>` text gssc does not rebuild).
 */
export interface Omission {
  readonly entryId: string
  readonly line: number
  readonly reason: 'unresolvedToolUse' | 'thinkingOnly' | 'whitespaceOnly' | 'apiError' | 'attachment'
}

/**
 * The oldest entries of a branch that a build with a budget never converted or counted: the
 * newer turns alone fill the budget (see `SessionBuildOptions.reach`). Their lines were
 * parsed and checked when the file was read.
 */
export interface Unread {
  /** How many entries of the branch (its context, after any compaction). */
  readonly entries: number
  readonly firstId: string
  readonly lastId: string
  readonly firstLine: number
  readonly lastLine: number
  /** The bytes of their lines. */
  readonly bytes: number
}

/** The compaction a context was rebuilt from. */
export interface CompactionUsed {
  readonly entryId: string
  readonly firstKeptEntryId?: string
  readonly tokensBefore: number
  /** False when `firstKeptEntryId` is not on the branch, so nothing before the compaction was kept. */
  readonly firstKeptFound: boolean
}

/**
 * The context of one branch, rebuilt as pi's `buildSessionContext` + `convertToLlm` would:
 * the messages a model sees, in order, and the settings in force at the leaf.
 */
export interface BranchContext {
  readonly file: string
  readonly format: SessionFormat
  readonly leafId: string | null
  /** Entry ids from the root (or the compaction boundary) to the leaf. */
  readonly path: ReadonlyArray<string>
  readonly messages: ReadonlyArray<ContextMessage>
  /** pi's thinking level at the leaf; `"off"` when never set. */
  readonly thinkingLevel: string
  /** The last model on the branch (from a model change or an assistant turn), or null. */
  readonly model: ModelRef | null
  /** Model and thinking-level changes on the branch, root first. */
  readonly changes: ReadonlyArray<SettingChange>
  readonly compaction?: CompactionUsed
  /** Problems met while walking the branch: a missing parent, a parent cycle. */
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** Lines on the branch the agent itself would not send (absent when none). */
  readonly omitted?: ReadonlyArray<Omission>
}
