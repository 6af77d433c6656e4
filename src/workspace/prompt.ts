/**
 * `buildSystemPrompt`: a workspace's system prompt within a token budget, with a report of
 * every part — kept, cut or left out, and why.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { match } from 'ts-pattern'
import { applyCaps, fitDocument } from '../compress/engine.js'
import { renderedFit } from '../compress/stage.js'
import type { GsscError, InputError } from '../error.js'
import { textRenderer } from '../output.js'
import type { PacketType, Priority } from '../packet.js'
import type { ExclusionReason } from '../phase.js'
import { decorationOf, sectionsOf, type Document, type Item as LayoutItem } from '../structure/document.js'
import { meter, type Meter } from '../tokenize/meter.js'
import type { Workspace } from './model.js'
import { partClass, resolveSettings, type PartKind, type PromptOptions, type Settings } from './options.js'
import { capOf, promptDocument, promptPolicy } from './policy.js'
import { promptSections, type Item, type Omitted, type Section } from './sections.js'

/**
 * Why a part is (or is not) in the prompt as it is: `kept` (whole), or the limit that cut or
 * dropped it, named in the one report vocabulary (`ExclusionReason`).
 */
export type Reason = 'kept' | Extract<ExclusionReason, 'item_cap' | 'section_cap' | 'over_budget'>

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
   * `kept` (whole), `item_cap` (its per-file cap) / `section_cap` / `over_budget` (cut or
   * dropped by that limit),
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
  const m = meter(s.tokenizer)
  const policy = promptPolicy(s)
  // caps first, to tell what the per-file caps cut from what the budget cut (the engine applies them once)
  const capped = applyCaps(promptDocument(built.right.sections, s, m), policy, m)
  const { ctx, render } = renderedFit(textRenderer, m, s.maxTokens)
  const fitted = fitDocument(capped, policy, ctx)
  const fates: Fates = { capped: itemsById(capped), fitted: itemsById(fitted.doc), sectionCapped: fitted.sectionCapped }
  return E.right({
    prompt: render(fitted.doc).out.output,
    tokens: fitted.tokens,
    budget: s.maxTokens,
    parts: [...built.right.sections.flatMap((sec) => sec.items.map((item) => report(item, sec, fates, s, m))), ...built.right.omitted.map(omittedReport(s))],
    problems: ws.problems,
  })
}

/** What the caps and the engine made of each part, by id. */
interface Fates {
  readonly capped: ReadonlyMap<string, LayoutItem>
  readonly fitted: ReadonlyMap<string, LayoutItem>
  readonly sectionCapped: ReadonlySet<string>
}

const itemsById = (doc: Document): ReadonlyMap<string, LayoutItem> => new Map(sectionsOf(doc).flatMap((sec) => sec.items.map((i) => [i.packetId!, i] as const)))

/** Why a part is as it is: the per-file cap when its cut (or removal) is the caps', else its section's cap or the budget. */
const reasonOf = (item: Item, f: Fates, s: Settings): Reason => {
  const before = f.capped.get(item.id)
  const after = f.fitted.get(item.id)
  const cap = capOf(item, s)
  const byCap: Reason = cap !== undefined && cap < s.maxTokens ? 'item_cap' : 'over_budget'
  if (after !== undefined && after.cut === undefined) return 'kept'
  if (f.sectionCapped.has(item.id)) return 'section_cap'
  // the caps removed it, or it stays as the caps cut it
  return before === undefined || after === before ? byCap : 'over_budget'
}

const fmt = (n: number): string => n.toLocaleString('en-US')

const report = (item: Item, section: Section, f: Fates, s: Settings, m: Meter): PartReport => {
  const kept = f.fitted.get(item.id)
  const reason = reasonOf(item, f, s)
  const dropped = kept === undefined
  const verb = dropped ? 'dropped' : 'cut'
  const cap = fmt(capOf(item, s) ?? s.maxFileTokens)
  const detail = match(reason)
    .with('kept', () => 'kept whole')
    .with('item_cap', () =>
      dropped ? `dropped: its ${cap}-token per-file cap cannot hold its heading and ${fmt(s.minCutTokens)} tokens` : `cut to the ${cap}-token per-file cap`,
    )
    .with('section_cap', () => `${verb}: the ${section.head.split('\n')[0]!.replace(/^#+ /, '')} block is capped at ${fmt(section.cap ?? s.maxTokens)} tokens`)
    .with('over_budget', () => `${verb} to fit the ${fmt(s.maxTokens)}-token budget after higher-priority parts`)
    .exhaustive()
  return {
    id: item.id,
    name: item.name,
    ...(item.file === undefined ? {} : { file: item.file }),
    kind: item.kind,
    type: item.type,
    priority: item.priority,
    // decoration and tokens are the part's exact count (see policy.ts)
    tokens: kept === undefined ? 0 : decorationOf(kept, m) + kept.tokens,
    truncated: kept?.cut !== undefined,
    dropped,
    reason,
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
