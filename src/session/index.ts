/**
 * Session histories: read the branched JSONL files agents write (pi, Claude Code, the seed
 * format), rebuild a branch's context as the agent would, turn it into a provider-ready,
 * counted history, and fit it to a budget with a swappable strategy.
 *
 * ```ts
 * const build = await buildSession('session.jsonl', { tokenizer })()            // the gatherer's read (load + rebuild + convert + count) + report
 * const fitted = await compressHistory({ budget: 6800, tokenizer })(build.right.history.items)()
 * const packets = historyPackets({ source: 'pi:session.jsonl' })(fitted.right.items)
 * ```
 *
 * @module
 */
export type { BranchContext, CompactionUsed, Omission, ContextMessage, Diagnostic, Entry, EntryBody, LoadedSession, MessageKind, ModelRef, SessionFormat, SettingChange, Unread } from './model.js'
export { SESSION_FORMATS } from './model.js'
export { loadSession, type SessionLoadOptions } from './load.js'
export { branchContext, type ContextOptions } from './context.js'
export { listBranches, type BranchInfo, type ListOptions } from './branches.js'
export { mergeBranches, type MergedBranch, type MergedContext, type MergeOptions } from './merge.js'
export { replayThinking, type CrossModelThinking, type ThinkingResult } from './thinking.js'
export { historyOf, NO_RESULT, toHistory, type History, type HistoryOptions } from './history.js'
export { counter, type Count, type HistoryItem, type HistoryKind, type Repair } from './items.js'
export { historyPackets, sessionSource, type PacketSource } from './packets.js'
export { olderTurns, sessionHistory, windowStart } from './window.js'
export { buildSession, type BuildStats, type SessionBuild, type SessionBuildOptions } from './build.js'
export type { Reach } from './reach.js'
export { rebuildSession } from './incremental.js'
export { createSessionCache, type SessionCache, type SessionCacheOptions } from './cache.js'
export { buildSessions, mapLimit, type SessionRequest } from './parallel.js'
export { sessionBenchmark, type SessionBenchResult } from './bench.js'
export { syntheticPiSession, type SyntheticOptions } from './synthetic.js'
export type { DropReason, FitOptions, FitReport, FitStrategy, FittedHistory, Summarizer } from './fit/model.js'
export { truncateHistory, truncateHistorySync, type TruncateOptions } from './fit/truncate.js'
export { compressHistory, type CompressOptions } from './fit/compress.js'
export { importantItem, smartHistory, type SmartOptions } from './fit/smart.js'
export type { SummaryOptions } from './fit/summarized.js'
export { extractiveSummarizer, type ExtractiveOptions } from './fit/extractive.js'
export { historyStrategy, strategyName, STRATEGY_NAMES, type StrategyName, type StrategyOptions } from './fit/strategy.js'
export { historyCompressor, type HistoryCompressorOptions, type StrategyFor } from './compressor.js'
// the session file as a gatherer of the pipeline
export { session, sessionGathering, groupedRepairs, type SessionGatherOptions, type SessionGathered } from '../gather/session.js'
export { readSessionFile } from '../gather/sessionFile.js'
