/**
 * The build result and its report: what was kept, cut or dropped, and why.
 *
 * @module
 */
import type { PacketType, Priority } from './packet.js'
import type { Exclusion, ExclusionReason, GatherFailure, Warning } from './phase.js'
import type { Scores } from './select/score.js'
import type { Document } from './structure/document.js'
import type { MeterStats } from './tokenize/meter.js'

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
  readonly stats: MeterStats
}

/**
 * The report as plain JSON (what `gssc build --json` prints), without the document.
 *
 * @category utils
 * @since 0.1.0
 */
export const toJson = <O>(r: BuildResult<O>) => ({
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
})
