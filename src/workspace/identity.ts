/**
 * The identity block of gssc's own layout (nanobot versions have theirs in
 * `nanobotIdentity.ts`): title and intro (and the tool list, when one is given),
 * `## Current Time`, `## Runtime`, `## Workspace` (where memory, history and skills live), then
 * guidance lines.
 *
 * @module
 */
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import type { ConfigError } from '../error.js'
import { describeTime, wallTime } from './clock.js'
import type { Workspace } from './model.js'
import type { Settings } from './options.js'

/**
 * The identity text for a workspace.
 *
 * @example
 * identityText(ws, settings)
 * // Right('# nanobot 🐈\n\nYou are nanobot, a helpful AI assistant.\n\n## Current Time\n2026-07-02 09:15 (Thursday) (Asia/Shanghai, UTC+08:00)\n\n## Runtime\n…')
 * @category utils
 */
export const identityText = (ws: Workspace, s: Settings): E.Either<ConfigError, string> => {
  const wall = wallTime(ws.clock.now, ws.clock.timeZone)
  if (E.isLeft(wall)) return wall
  const at = (...segments: string[]): string => join(ws.root, ...segments)
  const log = match(ws.memory.layout)
    .with('daily', () => `- Daily notes: ${at('memory', 'YYYY-MM-DD.md')}`)
    .with('history-md', () => `- History log: ${at('memory', 'HISTORY.md')} (grep-searchable; each entry starts with [YYYY-MM-DD HH:MM])`)
    .with('history-jsonl', () => `- History log: ${at('memory', 'history.jsonl')} (one JSON object per line)`)
    .exhaustive()
  const title = s.identity.emoji === '' ? s.identity.name : `${s.identity.name} ${s.identity.emoji}`
  const lines = [
    `# ${title}`,
    '',
    s.tools.length === 0 ? s.identity.intro : `${s.identity.intro} You have access to tools that allow you to:`,
    ...s.tools.map((t) => `- ${t}`),
    '',
    '## Current Time',
    describeTime(wall.right),
    '',
    '## Runtime',
    s.runtime,
    '',
    '## Workspace',
    `Your workspace is at: ${ws.root}`,
    `- Long-term memory: ${at('memory', 'MEMORY.md')}`,
    log,
    `- Custom skills: ${at('skills', '{skill-name}', 'SKILL.md')}`,
    ...(s.identity.guidance.length === 0 ? [] : ['', ...s.identity.guidance]),
  ]
  return E.right(lines.join('\n'))
}
