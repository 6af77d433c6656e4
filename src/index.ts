/**
 * gssc: gather, select, structure and compress the context an LLM sees.
 *
 * This entry is the core, and runs anywhere (Node, browsers, edge runtimes): the packet and
 * message model, the tokenizers, the four stages and `build`, the fitting engine, and the
 * renderers of the pipeline. Every stage is a plain function value you can replace. The rest
 * lives in subpaths, so an app loads only what it uses:
 *
 * | entry | what |
 * | --- | --- |
 * | `gssc/adapters` | SDK messages in and out (also exported here) |
 * | `gssc/tokenize` | tokenizers, lower bounds, caches, the meter |
 * | `gssc/render` | provider formats: OpenAI, Anthropic, text; repair, validators, costs |
 * | `gssc/session` | agents' session histories (pi, Claude Code, the seed format) and strategies |
 * | `gssc/workspace` | agent workspaces (nanobot style): system prompt, packets, turn messages |
 * | `gssc/chunks` | agent memory chunks as XML (team9's format) |
 * | `gssc/conversation` | the conversation builder and system-prompt composer |
 * | `gssc/inspect` | the explain table, the terminal view and the HTML report |
 * | `gssc/node` | whatever reads files: session files, workspace folders, template folders |
 *
 * @module
 */

// model
export * from './packet.js'
export * from './message.js'
export * from './config.js'
export * from './error.js'
export type * from './phase.js'
export * from './report.js'
export * from './layoutReport.js'
export {
  fingerprintOf,
  isVolatile,
  sharedUnits,
  unitKey,
  type IdenticalPrefix,
  type OutputUnit,
  type PrefixFingerprint,
  type PrefixReport,
  type Previous,
} from './report/prefix.js'
export type { LayoutCosts } from './rebuild/costs.js'
export type { RebuildKey, RebuildMemo, RebuildOutcome } from './rebuild/memo.js'
export type { TurnTable } from './rebuild/table.js'
export type { FrameCounts } from './rebuild/frame.js'
export type { WindowCount } from './rebuild/windowCount.js'
export { validateRequest, type HistoryReach } from './request.js'
export type { TimestampInput } from './timestamp.js'

// tokens (more in gssc/tokenize)
export { createTokenizer, encodingTokenizer, estimateTokenizer, type Tokenizer, type Engine } from './tokenize/tokenizer.js'
export { loadEncoding } from './tokenize/ranks.js'
export { createTokenCache, type TokenCache } from './tokenize/cache.js'
export type { Meter, MeterStats } from './tokenize/meter.js'
export type { Edges, Join } from './tokenize/wordEdges.js'
export type { CountedEnds, EncodingName } from './tokenize/bpe.js'

// gather
export * from './gather/gatherer.js'
export * from './gather/composite.js'
export * from './gather/builtins.js'

// select
export * from './select/keywords.js'
export * from './select/score.js'
export * from './select/mmr.js'
export * from './select/selector.js'
export * from './select/layoutAware.js'
export * from './select/shares.js'
export * from './select/embed.js'

// structure
export * from './structure/document.js'
export type { Decoration, Structurer } from './structure/structurer.js'
export * from './structure/labels.js'
export { section, sectioned, SLOT_LAYOUT, OUTPUT_RANK, type SectionedOptions } from './structure/sectioned.js'
export { stable, type StableOptions } from './structure/stable.js'
export * from './structure/minimal.js'
export * from './structure/template.js'
export type { Slot } from './structure/items.js'
export * from './structure/xml.js'
export * from './structure/chat.js'

// compress
export * from './compress/compressor.js'
export * from './compress/policy.js'
export * from './compress/engine.js'
export * from './compress/shrink.js'
export * from './compress/cutText.js'
export * from './compress/truncate.js'
export * from './compress/noop.js'

// content-aware compression of one item (JSON, logs, code, Markdown)
export * from './compress/content/index.js'

// the everyday job, and the Promise facade
export * from './fit/fitMessages.js'
export * from './promise.js'
export { toolsCost, ANTHROPIC_TOOL_SYSTEM_PROMPT, type ToolsCost } from './render/toolCost.js'

// SDK messages in and out: OpenAI Chat and Responses, Anthropic, AI SDK, LangChain
export * from './adapters/index.js'

// render and run (provider formats in gssc/render)
export * from './output.js'
export * from './pipeline.js'
export * from './formats.js'
export * from './structure/messages.js'
