/**
 * The build result and its report: what was kept, cut or dropped, and why.
 *
 * @module
 */
import { match, P } from 'ts-pattern'
import type { PacketType, Priority } from './packet.js'
import type { ContentCut, Exclusion, ExclusionReason, GatherFailure, Warning } from './phase.js'
import { describeFinding } from './render/finding.js'
import type { PrefixReport } from './report/prefix.js'
import type { Scores } from './select/score.js'
import type { Document } from './structure/document.js'
import type { MeterStats } from './tokenize/meter.js'
import type { RebuildMemo, RebuildOutcome } from './rebuild/memo.js'

/** The token budget of a build. */
export interface Budget {
  readonly maxTokens: number
  /** Kept free for the answer: `maxTokens − available`. */
  readonly reserved: number
  /** `floor(maxTokens × (1 − reserveRatio))`: the limit on the output. */
  readonly available: number
  /** Tokens of the output (equals `tokenCount`). */
  readonly used: number
}

/**
 * One section of the output. `tokens` is the sum of the counts of its parts (heading,
 * labels, contents, separators); BPE merges a few tokens across joins, so the sections add
 * up to roughly, not exactly, the output's count (which is exact).
 */
export interface SectionReport {
  readonly name: string
  readonly rank: number
  readonly tokens: number
  readonly packetIds: ReadonlyArray<string>
}

/** A packet whose text was cut. */
export interface Truncation {
  readonly id: string
  readonly keptTokens: number
  readonly originalTokens: number
  /** When the per-item cap cut it: what it took out of each text, knowing its kind. */
  readonly content?: ReadonlyArray<ContentCut>
}

/** Every packet the build saw, with its fate. */
export interface PacketReport {
  readonly id: string
  readonly type: PacketType
  readonly priority: Priority
  readonly source: string
  /** Undefined when the packet was never tokenized (it could not have been selected). */
  readonly tokens: number | undefined
  readonly scores: Scores | undefined
  readonly status: 'kept' | 'truncated' | 'dropped'
  readonly reason?: ExclusionReason
  readonly detail?: string
  readonly section?: string
}

/**
 * What every builder reports, in one vocabulary: the core build's result without its meter
 * statistics. `explain`, `renderExplain` and `renderReport` read it, whichever builder made
 * it (a builder's own result carries it as `report`, see {@link Reported}).
 */
export type Report<O = unknown> = Omit<BuildResult<O>, 'stats' | 'prefix' | 'rebuild'> & {
  /** The core build's and `fitMessages`' cache-stable prefix (see `docs/caching.md`); other builders have none yet. */
  readonly prefix?: PrefixReport
}

/**
 * A builder's result that carries its report: `fitMessages`, `buildChunkContext`,
 * `buildLlmMessagesFromConversation`, `buildSession` / `rebuildSession`, the workspace's
 * `buildTurn`.
 */
export interface Reported<O = unknown> {
  readonly report: Report<O>
}

/**
 * The report of any builder's result: the core build's result is its own report; every other
 * builder's result carries one.
 *
 * @example
 * explain(reportOf(await fitMessages(messages, { maxTokens: 8000 })))
 * @category utils
 * @since 0.2.0
 */
export const reportOf = <O>(r: Report<O> | Reported<O>): Report<O> => ('report' in r ? r.report : r)

/** The result of a build. */
export interface BuildResult<O = string> {
  /** What you send: a prompt string, or the chat messages of the chosen format. */
  readonly output: O
  /**
   * Provenance: for each turn of the output (the one text of a text output; each message of
   * an OpenAI request; the system prompt, then each message, of an Anthropic request), the
   * ids of the packets it shows, in order.
   */
  readonly sources: ReadonlyArray<ReadonlyArray<string>>
  readonly format: string
  /** Tokens of `output` under the build's tokenizer; never more than `budget.available`. */
  readonly tokenCount: number
  /** False when the tokenizer only approximates the model's (Claude, the estimator). */
  readonly tokenCountExact: boolean
  readonly budget: Budget
  /** Ids of packets in the output, in output order. */
  readonly included: ReadonlyArray<string>
  readonly excluded: ReadonlyArray<Exclusion>
  readonly truncated: ReadonlyArray<Truncation>
  readonly sections: ReadonlyArray<SectionReport>
  readonly packets: ReadonlyArray<PacketReport>
  readonly failures: ReadonlyArray<GatherFailure>
  readonly warnings: ReadonlyArray<Warning>
  /** The final layout, as data. */
  readonly doc: Document
  /**
   * The cache-stable prefix of the output (instructions and history, before what changes per
   * request): its hash, its exact tokens, and — given the previous build as `previous` — how
   * many of them that build already sent (`identical`). Pass it (or the whole result) as the
   * next build's `previous`. See `docs/caching.md`.
   */
  readonly prefix: PrefixReport
  /**
   * How much tokenizing the build did and, when given a `previous` build to append to,
   * whether it did (`rebuild.mode` `incremental`) or built cold, and why (`fallback`).
   */
  readonly stats: MeterStats & { readonly rebuild?: RebuildOutcome }
  /**
   * What the next build of this request with more turns appended needs to cost only those
   * turns: pass this result as its `previous` (see `docs/caching.md`). Present on default
   * text builds of a plain history made with `rebuildable: true` or given a `previous` (unless
   * `rebuildable: false`).
   */
  readonly rebuild?: RebuildMemo
}

/**
 * The report of any builder's result as plain JSON (what `gssc build --json` prints), without the document.
 *
 * @category utils
 * @since 0.1.0
 */
export const toJson = <O>(result: Report<O> | Reported<O>) => {
  const r = reportOf(result)
  return {
    output: r.output,
    sources: r.sources,
    format: r.format,
    tokenCount: r.tokenCount,
    tokenCountExact: r.tokenCountExact,
    budget: r.budget,
    included: r.included,
    excluded: r.excluded,
    truncated: r.truncated,
    sections: r.sections,
    failures: r.failures,
    warnings: r.warnings,
    packets: r.packets,
    ...(r.prefix === undefined ? {} : { prefix: { hash: r.prefix.hash, tokens: r.prefix.tokens, units: r.prefix.units.length, ...(r.prefix.identical === undefined ? {} : { identical: r.prefix.identical }) } }),
  }
}

/**
 * A warning in words: a builder's own note says itself (`message`); a renderer's repair is
 * described by `describeFinding`. What the CLI, `--explain` and the HTML report print.
 *
 * @example
 * describeWarning({ _tag: 'SyntheticResult', index: 4, callId: 'call_1' })
 * // 'messages[4]: tool call "call_1" had no result; inserted an error result "No result provided"'
 * @category utils
 * @since 0.2.0
 */
export const describeWarning = (w: Warning): string =>
  match(w)
    .with({ message: P.string }, (n) => n.message)
    .with({ index: P.number }, (f) => describeFinding(f))
    .exhaustive()
