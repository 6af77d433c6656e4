/**
 * A workspace system prompt's report in the one vocabulary (`layoutReport`): each part of the
 * prompt (identity, bootstrap files, memory, skills, history, session) a candidate, kept, cut
 * or left out with its reason (the part report's own, already in the shared words: `item_cap`,
 * `section_cap`, `over_budget`, a missing file, an unavailable or shadowed skill, what the
 * nanobot version does not show), the workspace's load problems as warnings. What `buildTurn` carries as `report`.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { layoutReport } from '../layoutReport.js'
import type { ExclusionReason, Exclusion, Warning } from '../phase.js'
import type { Report } from '../report.js'
import type { Item, Section } from '../structure/document.js'
import { meter } from '../tokenize/meter.js'
import type { Tokenizer } from '../tokenize/tokenizer.js'
import type { PartReport, SystemPrompt } from './prompt.js'

/** A left-out part's reason: its own (a kept part is never left out; named for the match to stay exhaustive). */
const reasonOf = (r: PartReport['reason']): ExclusionReason =>
  match(r)
    .with('kept', () => 'over_budget' as const)
    .with('item_cap', 'section_cap', 'over_budget', 'missing', 'unavailable', 'ignored', 'shadowed', (x) => x)
    .exhaustive()

/**
 * The report of a workspace system prompt, counted by `tokenizer`; `source` names the
 * workspace in warnings.
 *
 * @category constructors
 * @since 0.2.0
 */
export const workspaceReport = (system: SystemPrompt, tokenizer: Tokenizer, source: string): Report<string> => {
  const kept = system.parts.filter((p) => !p.dropped)
  const prompt: Section = {
    _tag: 'Section',
    name: 'system',
    rank: 0,
    head: '',
    items: kept.map((p): Item => ({ packetId: p.id, prefix: '', text: '', tokens: p.tokens })),
    separator: '',
    dropFrom: 'end',
    keep: 'head',
    channel: 'system',
    omitWhenEmpty: true,
    marker: '',
  }
  return layoutReport({
    output: system.prompt,
    sources: [kept.map((p) => p.id)],
    format: 'text',
    tokenCount: system.tokens,
    tokenCountExact: tokenizer.exact,
    maxTokens: system.budget,
    doc: { blocks: [prompt], joiner: '' },
    candidates: system.parts.map((p) => ({ id: p.id, type: p.type, priority: p.priority, source: p.file ?? p.kind, tokens: p.dropped ? undefined : p.tokens })),
    excluded: system.parts.flatMap((p): ReadonlyArray<Exclusion> => (p.dropped ? [{ id: p.id, reason: reasonOf(p.reason), detail: p.detail }] : [])),
    cut: kept.filter((p) => p.truncated).map((p) => p.id),
    warnings: system.problems.map((e): Warning => ({ _tag: 'SourceProblem', source, message: e.message })),
    meter: meter(tokenizer),
  })
}
