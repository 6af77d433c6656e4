/**
 * The agent workspace: a nanobot-style folder (bootstrap files, memory, skills) into a
 * system prompt within a token budget, packets for the pipeline, and the messages of a
 * tool-using turn.
 *
 * @module
 */
export { loadWorkspace, DEFAULT_READ_LIMIT_BYTES, type LoadOptions } from './load.js'
export { DEFAULT_BOOTSTRAP_FILES } from './model.js'
export type { Clock, HistoryEntry, Memory, MemoryLayout, Requirements, Skill, Workspace, WorkspaceFile } from './model.js'
export { pathHost, type Host } from './requirements.js'
export { buildSystemPrompt, type PartReport, type SystemPrompt } from './prompt.js'
export type { Reason as PartReason } from './prompt.js'
export type { SectionId } from './sections.js'
export { PART_TYPES, type IdentityOptions, type PartKind, type PromptOptions } from './options.js'
export { workspacePackets, type WorkspaceLayout } from './packets.js'
export { buildMessages, buildTurn, addAssistantMessage, addToolResult, type ToolCallInput, type Turn, type TurnInput } from './messages.js'
export { imagePart, sniffImage, DEFAULT_MAX_IMAGE_BYTES, type ImageMime, type MediaOptions } from './media.js'
export type { TurnAssistantMessage, TurnCustomToolCall, TurnMessage, TurnSystemMessage, TurnToolMessage, TurnUserMessage } from './openai.js'
export { initWorkspace, STARTER_FILES, type InitReport } from './init.js'
export { escapeXml } from './sectionKit.js'
export { nanobot } from './layout.js'
export { PART_SEPARATOR } from '../structure/parts.js'
export { NANOBOT_VERSIONS, parseNanobotVersion, type NanobotVersion } from './version.js'
export { NANOBOT_TOOLS } from './nanobotIdentity.js'
export { zoneLabel } from './zoneName.js'
// the workspace folder as a gatherer of the pipeline
export { workspace, workspaceGathering, type WorkspaceGatherOptions, type WorkspaceGathered } from '../gather/workspace.js'
