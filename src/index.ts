/**
 * gssc: gather, select, structure and compress the context an LLM sees.
 *
 * Import what you need from here; every stage is a plain function value you can replace.
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
export { validateRequest } from './request.js'

// tokens
export * from './tokenize/tokenizer.js'
export { createTokenCache, type TokenCache } from './tokenize/cache.js'
export { meter, type Meter, type MeterStats } from './tokenize/meter.js'
export type { Bpe, EncodingName } from './tokenize/bpe.js'

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

// structure
export * from './structure/document.js'
export type { Structurer } from './structure/structurer.js'
export * from './structure/labels.js'
export { section, sectioned, SLOT_LAYOUT, OUTPUT_RANK, type SectionedOptions } from './structure/sectioned.js'
export * from './structure/minimal.js'
export * from './structure/template.js'

// compress
export * from './compress/compressor.js'
export * from './compress/policy.js'
export * from './compress/engine.js'
export * from './compress/shrink.js'
export * from './compress/cutText.js'
export * from './compress/truncate.js'
export * from './compress/noop.js'

// render and run
export * from './output.js'
export * from './pipeline.js'

// chat messages out: provider formats, agent chunks, the conversation builder
export * from './structure/messages.js'
export * from './render/index.js'
export * from './chunks/index.js'
export * from './conversation/index.js'

// session histories
export * from './session/index.js'
export * from './session/compressor.js'

// agent workspaces
export * from './workspace/index.js'
export * from './structure/parts.js'
export * from './formats.js'
export * from './structure/xml.js'
export * from './inspect/index.js'
export { prefixEndWindowed } from './tokenize/prefix.js'
