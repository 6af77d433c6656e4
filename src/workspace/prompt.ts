/**
 * `buildSystemPrompt`: a workspace's system prompt within a token budget, with a report of
 * every part — kept, cut or left out, and why.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import type { GsscError, InputError } from '../error.js'
import type { PacketType, Priority } from '../packet.js'
import { allocate, capAll, renderPrompt, shrinkLast, type Decision, type Reason } from './budget.js'
import type { Workspace } from './model.js'
import { fileCap, partClass, resolveSettings, type PartKind, type PromptOptions, type Settings } from './options.js'
import { promptSections, type Omitted } from './sections.js'

/** One part of the prompt in the report. */
export interface PartReport {
  /** Stable id: `identity`, `bootstrap:AGENTS.md`, `memory`, `skill:<dir>`, `summary:<dir>`, `history:<line>`, `session`. */
  readonly id: string
  readonly name: string
  /** The workspace file it came from. */
  readonly file?: string
  readonly kind: PartKind
  readonly type: PacketType
  readonly priority: Priority
  /** Tokens it takes in the prompt, counted on its own; 0 when left out. */
  readonly tokens: number
  readonly truncated: boolean
  readonly dropped: boolean
  /**
   * `kept` (whole), `file-cap` / `section-cap` / `budget` (cut or dropped by that limit),
   * `missing` (file not found), `unavailable` (always-on skill with unmet requirements),
   * `ignored` (the nanobot version does not show it), `shadowed` (a bundled skill hidden by
   * the workspace's own).
   */
  readonly reason: Reason | Omitted['reason']
  /** The reason in words. */
  readonly detail: string
}

/** A built system prompt. */
export interface SystemPrompt {
  readonly prompt: string
  /** The exact token count of `prompt`; never more than `budget`. */
  readonly tokens: number
  readonly budget: number
  /** Every part, in prompt order, then the parts that were never candidates (missing files, unavailable always-on skills). */
  readonly parts: ReadonlyArray<PartReport>
  /** The workspace's load problems, passed on so a report shows them. */
  readonly problems: ReadonlyArray<InputError>
}

/**
 * Builds the system prompt of a workspace in nanobot's order (identity, bootstrap files,
 * memory, always-on skills, skills summary, recent history, current session), fitting it
 * to `maxTokens`: every file first to its per-file cap, then lowest priority first is cut
 * or dropped. `tokens` is the exact count of `prompt`.
 *
 * @example
 * const tokenizer = pipe(createTokenizer('gpt-4o'), E.getOrElseW(() => { throw … }))
 * const built = buildSystemPrompt(ws, { tokenizer, maxTokens: 4000, channel: 'cli', chatId: 'direct' })
 * // Right({ prompt: '# nanobot 🐈\n\n…', tokens: 1834, budget: 4000, parts: [{ id: 'identity', … }, …] })
 * @category constructors
 * @since 0.1.0
 */
export const buildSystemPrompt = (ws: Workspace, options: PromptOptions): E.Either<GsscError, SystemPrompt> => {
  const settings = resolveSettings(options, ws.nanobotVersion)
  if (E.isLeft(settings)) return settings
  const s = settings.right
  const built = promptSections(ws, s)
  if (E.isLeft(built)) return built
  const capped = capAll(built.right.sections, s)
  const first = allocate(capped, s, s.maxTokens)
  let best = settle(first.decisions, s)
  if (first.short && best.tokens < s.maxTokens) {
    // the parts' counts overshot the joined prompt's: allocate again with that excess back
    const retry = settle(allocate(capped, s, s.maxTokens + Math.max(0, first.estimate - best.tokens)).decisions, s)
    if (retry.tokens > best.tokens) best = retry
  }
  const { decisions, prompt, tokens } = best
  return E.right({
    prompt,
    tokens,
    budget: s.maxTokens,
    parts: [...decisions.map((d) => report(d, s)), ...built.right.omitted.map(omittedReport(s))],
    problems: ws.problems,
  })
}

/** Renders and counts the prompt exactly, cutting the lowest-priority part until it fits. */
const settle = (initial: ReadonlyArray<Decision>, s: Settings): { readonly decisions: ReadonlyArray<Decision>; readonly prompt: string; readonly tokens: number } => {
  let decisions = initial
  let prompt = renderPrompt(decisions)
  let tokens = s.tokenizer.count(prompt)
  // each pass cuts or drops one part, asking a little more each time, so it ends
  for (let pass = 0; tokens > s.maxTokens; pass++) {
    const next = shrinkLast(decisions, tokens - s.maxTokens + 2 ** pass - 1, s)
    if (next === decisions) break
    decisions = next
    prompt = renderPrompt(decisions)
    tokens = s.tokenizer.count(prompt)
  }
  return { decisions, prompt, tokens }
}

const fmt = (n: number): string => n.toLocaleString('en-US')

const report = (d: Decision, s: Settings): PartReport => {
  const { item, fitted } = d
  const truncated = fitted?.truncated ?? false
  const dropped = fitted === undefined
  const verb = dropped ? 'dropped' : 'cut'
  const cap = fmt(item.file === undefined ? s.maxFileTokens : fileCap(s, item.file))
  const detail = match(d.reason)
    .with('kept', () => 'kept whole')
    .with('file-cap', () =>
      dropped ? `dropped: its ${cap}-token per-file cap cannot hold its heading and ${fmt(s.minCutTokens)} tokens` : `cut to the ${cap}-token per-file cap`,
    )
    .with('section-cap', () => `${verb}: the ${d.section.head.split('\n')[0]!.replace(/^#+ /, '')} block is capped at ${fmt(d.section.cap ?? s.maxTokens)} tokens`)
    .with('budget', () => `${verb} to fit the ${fmt(s.maxTokens)}-token budget after higher-priority parts`)
    .exhaustive()
  return {
    id: item.id,
    name: item.name,
    ...(item.file === undefined ? {} : { file: item.file }),
    kind: item.kind,
    type: item.type,
    priority: item.priority,
    tokens: fitted?.tokens ?? 0,
    truncated,
    dropped,
    reason: d.reason,
    detail,
  }
}

const omittedReport =
  (s: Settings) =>
  (o: Omitted): PartReport => ({
    id: o.id,
    name: o.name,
    ...(o.file === undefined ? {} : { file: o.file }),
    kind: o.kind,
    ...partClass(s, o.kind, o.file),
    tokens: 0,
    truncated: false,
    dropped: true,
    reason: o.reason,
    detail: o.detail,
  })
