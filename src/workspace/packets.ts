/**
 * `workspacePackets`: the workspace as packets for the core pipeline, which then selects,
 * structures and compresses them with everything else. Each part is one packet, already
 * cut to its per-file cap; the total budget is left to the pipeline.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { GsscError } from '../error.js'
import { applyCaps } from '../compress/engine.js'
import type { PacketInput } from '../packet.js'
import { decorationOf, renderSection, sectionsOf, type Section as LayoutSection } from '../structure/document.js'
import { meter, type Meter } from '../tokenize/meter.js'
import type { Workspace } from './model.js'
import { partClass, resolveSettings, type PromptOptions, type Settings } from './options.js'
import { promptDocument, promptPolicy } from './policy.js'
import { promptSections, type Section } from './sections.js'

/** Where a packet sat in the nanobot prompt; stored as `metadata.workspace`. */
export interface WorkspaceLayout {
  /** `identity`, `bootstrap`, `memory`, `active-skills`, `skills`, `history` or `session`. */
  readonly section: Section['id']
  /** The section's heading in the prompt (`# Memory`), or `''`. */
  readonly sectionHead: string
  readonly file?: string
  /** Index in prompt order. */
  readonly order: number
  readonly truncated: boolean
}

/**
 * One packet per prompt part, in prompt order:
 *
 * | part | type | priority | content |
 * | --- | --- | --- | --- |
 * | identity, bootstrap files, current session | instructions | P0 | `# nanobot 🐈…`, `## AGENTS.md\n\n…` |
 * | long-term memory, today's note | task_state | P1 | `## Long-term Memory\n…` |
 * | always-on / requested skills | evidence | P2 | `### Skill: <name>\n\n<body>` |
 * | skills summary (one packet) | evidence | P2 | `# Skills\n\n…<skills>…</skills>` |
 * | history-log entries | history | P3 | `- [YYYY-MM-DD HH:MM] …`, with `timestamp` |
 *
 * Every packet has `relevance: 1`: workspace parts are never dropped for not sharing a
 * keyword with the query. Priorities follow `options.priorities`; `tokens` is the content's count under
 * `options.tokenizer`; `metadata.workspace` is a {@link WorkspaceLayout}, so a structurer
 * can rebuild nanobot's layout. A part whose per-file cap is too small to hold anything is
 * left out.
 *
 * @example
 * workspacePackets(ws, { tokenizer })
 * // Right([{ id: 'workspace:identity', type: 'instructions', priority: 0, content: '# nanobot 🐈…', … }, …])
 * @category constructors
 * @since 0.1.0
 */
export const workspacePackets = (ws: Workspace, options: PromptOptions): E.Either<GsscError, ReadonlyArray<PacketInput>> => {
  const settings = resolveSettings(options, ws.nanobotVersion)
  if (E.isLeft(settings)) return settings
  // no total: fitting the whole context is the pipeline's job
  const s: Settings = { ...settings.right, maxTokens: Number.MAX_SAFE_INTEGER }
  const built = promptSections(ws, s)
  if (E.isLeft(built)) return built
  const m = meter(s.tokenizer)
  // each part to its per-file cap, by the prompt's own policy
  const capped = sectionsOf(applyCaps(promptDocument(built.right.sections, s, m), promptPolicy(s), m))
  const packets = built.right.sections.flatMap((sec, n) => (sec.id === 'skills' ? [summaryPacket(sec, capped[n]!, s)] : itemPackets(sec, capped[n]!, m)))
  return E.right(packets.map((p, order) => ({ ...p, metadata: { workspace: { ...(p.metadata?.workspace as WorkspaceLayout), order } } })))
}

/**
 * Every workspace part is part of the agent's system prompt, relevant whatever the query:
 * a weather question must still see the skills summary that lists the weather skill. The
 * selector's relevance gate never drops them; priorities decide what a tight budget keeps.
 */
const ALWAYS_RELEVANT = 1

const itemPackets = (sec: Section, laid: LayoutSection, m: Meter): ReadonlyArray<PacketInput> =>
  sec.items.flatMap((item) => {
    const fitted = laid.items.find((i) => i.packetId === item.id)
    if (fitted === undefined) return []
    const packet: PacketInput = {
      id: `workspace:${item.id}`,
      type: item.type,
      priority: item.priority,
      content: fitted.prefix + fitted.text,
      source: `workspace:${item.file ?? item.kind}`,
      // decoration and tokens are the part's exact count (see policy.ts)
      tokens: decorationOf(fitted, m) + fitted.tokens,
      relevance: ALWAYS_RELEVANT,
      ...(item.timestamp === undefined ? {} : { timestamp: item.timestamp }),
      metadata: { workspace: layout(sec, item.file, fitted.cut !== undefined) },
    }
    return [packet]
  })

/** The summary stays one packet: its XML list is only meaningful whole. */
const summaryPacket = (sec: Section, laid: LayoutSection, s: Settings): PacketInput => {
  const content = renderSection(laid)
  return {
    id: 'workspace:skills',
    ...partClass(s, 'skills-summary'),
    content,
    source: 'workspace:skills',
    tokens: s.tokenizer.count(content),
    relevance: ALWAYS_RELEVANT,
    metadata: { workspace: layout(sec, undefined, false) },
  }
}

const layout = (sec: Section, file: string | undefined, truncated: boolean): WorkspaceLayout => ({
  section: sec.id,
  sectionHead: sec.head.split('\n')[0] ?? '',
  ...(file === undefined ? {} : { file }),
  order: 0,
  truncated,
})
