/**
 * The conversation builder (seed 001): a composed system prompt per session mode, and stored
 * conversation messages turned into the messages of the next model call.
 *
 * @module
 */
export * from './build.js'
export * from './systemPrompt.js'
export * from './templates.js'
export * from './types.js'
export { PART_SEPARATOR } from '../structure/parts.js'
// the stored conversation as a gatherer of the pipeline
export { conversation, conversationGathering, type ConversationGathered } from '../gather/conversation.js'
