/**
 * What reads files (`gssc/node`, Node only): session files, workspace folders, prompt
 * template folders. Everything else in gssc runs on any platform; these are the functions
 * that need `node:fs`.
 *
 * @module
 */
export { loadTemplates, defaultTemplatesDir } from '../conversation/templateFiles.js'
export { loadSession, type SessionLoadOptions } from '../session/load.js'
export { buildSession, type SessionBuild, type SessionBuildOptions } from '../session/build.js'
export { rebuildSession } from '../session/incremental.js'
export { buildSessions, type SessionRequest } from '../session/parallel.js'
export { loadWorkspace, type LoadOptions } from '../workspace/load.js'
export { initWorkspace, type InitReport } from '../workspace/init.js'
export { session, type SessionGatherOptions } from '../gather/session.js'
export { workspace, type WorkspaceGatherOptions } from '../gather/workspace.js'
