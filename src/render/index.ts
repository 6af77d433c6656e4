/**
 * Provider message formats: neutral `ChatMessage[]` → OpenAI Chat Completions messages,
 * an Anthropic Messages request, or a text transcript; the repair pass that makes any
 * conversation acceptable to a provider; validators for both formats; and token costs with
 * per-message overhead.
 *
 * @module
 */
export * from './anthropic.js'
export * from './blank.js'
export * from './breakpoints.js'
export * from './callId.js'
export * from './checkAnthropic.js'
export * from './checkOpenAI.js'
export { modelFamily, sameModel } from './clean.js'
export * from './cost.js'
export * from './count.js'
export * from './finding.js'
export * from './imageSize.js'
export * from './imageTokens.js'
export { toOpenAI, ATTACHED_IMAGES, SEE_ATTACHED_IMAGE, type OpenAIRendered } from './openai.js'
export * from './options.js'
export * from './repair.js'
export * from './text.js'
export * from './violation.js'
export * from './wire.js'
export * from './toolCost.js'
