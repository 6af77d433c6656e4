/**
 * A session build's report in the one vocabulary (`layoutReport`), and the warnings a
 * session says in words (the session gatherer gives the same ones to the core build).
 *
 * The history's items are the candidates and the kept turns (a session build has no budget:
 * its count is the items' tokens, what the strategies fit); the turns the conversion left out
 * are rows with a reason (`filtered`: a failed turn, or a line the agent itself does not send;
 * `empty`; `orphan_result`); the file's problems and every repair are `SourceProblem` warnings,
 * grouped by what they did.
 *
 * @module
 */
import { match } from 'ts-pattern'
import { layoutReport } from '../layoutReport.js'
import type { ChatMessage, Origin } from '../message.js'
import type { Exclusion, Warning } from '../phase.js'
import type { Report } from '../report.js'
import { turnsSection, type Item } from '../structure/document.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer } from '../tokenize/tokenizer.js'
import type { History } from './history.js'
import type { Repair } from './items.js'
import type { Diagnostic, SessionFormat } from './model.js'

// -------------------------------------------------------------------------------------
// warnings
// -------------------------------------------------------------------------------------

const MAX_IDS = 4

const ids = (list: ReadonlyArray<string>): string =>
  list.length <= MAX_IDS ? list.join(', ') : `${list.slice(0, MAX_IDS).join(', ')} and ${list.length - MAX_IDS} more`

/** What a kind of repair did, said once for all its cases. */
const repairText = (r: Repair, target: Origin | undefined): string =>
  match(r)
    .with({ _tag: 'DroppedFailedTurn' }, () => 'failed assistant turns (error or aborted) left out')
    .with({ _tag: 'DroppedEmptyTurn' }, () => 'empty turns left out')
    .with({ _tag: 'SyntheticResult' }, () => 'calls with no result anywhere answered "No result provided"')
    .with({ _tag: 'DroppedOrphanResult' }, () => 'results with no call before them left out')
    .with({ _tag: 'DroppedDuplicateResult' }, () => 'second results for one call left out')
    .with({ _tag: 'ThinkingConverted' }, () =>
      target === undefined ? 'thinking sent as text (name the model with --target-model to send its own thinking as thinking)' : `thinking of models other than ${target.model} sent as text`,
    )
    .with({ _tag: 'LeftOutByAgent' }, (x) => `lines the agent itself does not send (${x.reason})`)
    .exhaustive()

/** Where a repair happened: a line for what the agent left out, else the item id. */
const where = (r: Repair): string =>
  match(r)
    .with({ _tag: 'LeftOutByAgent' }, (x) => `line ${x.line}`)
    .otherwise((x) => x.itemId)

/**
 * Repairs grouped by what they did, one line each with the count and the first ids.
 *
 * @category utils
 * @since 0.2.0
 */
export const groupedRepairs = (repairs: ReadonlyArray<Repair>, target?: Origin): ReadonlyArray<string> => {
  const groups = new Map<string, string[]>()
  for (const r of repairs) {
    const key = repairText(r, target)
    const list = groups.get(key)
    if (list === undefined) groups.set(key, [where(r)])
    else list.push(where(r))
  }
  return [...groups].map(([text, at]) => `${at.length} ${text}: ${ids(at)}`)
}

/**
 * A session's warnings: each problem of the file (with its line), then each kind of repair
 * once. `source` names the file.
 *
 * @category utils
 * @since 0.2.0
 */
export const sessionWarnings = (source: string, diagnostics: ReadonlyArray<Diagnostic>, repairs: ReadonlyArray<Repair>, target?: Origin): ReadonlyArray<Warning> => [
  ...diagnostics.map((d): Warning => ({ _tag: 'SourceProblem', source, line: d.line, message: d.reason })),
  ...groupedRepairs(repairs, target).map((message): Warning => ({ _tag: 'SourceProblem', source, message })),
]

// -------------------------------------------------------------------------------------
// report
// -------------------------------------------------------------------------------------

/** A turn the conversion left out, as an exclusion; a repair that left nothing out gives none. */
const leftOut = (r: Repair): ReadonlyArray<Exclusion> =>
  match(r)
    .with({ _tag: 'DroppedFailedTurn' }, (x): ReadonlyArray<Exclusion> => [{ id: x.itemId, reason: 'filtered', detail: `an assistant turn that ended in ${x.stopReason}: never replayed` }])
    .with({ _tag: 'DroppedEmptyTurn' }, (x): ReadonlyArray<Exclusion> => [{ id: x.itemId, reason: 'empty', detail: `a ${x.role} turn with nothing left to send` }])
    .with({ _tag: 'DroppedOrphanResult' }, (x): ReadonlyArray<Exclusion> => [{ id: x.itemId, reason: 'orphan_result', detail: `a result for ${x.callId} with no call before it` }])
    .with({ _tag: 'DroppedDuplicateResult' }, (x): ReadonlyArray<Exclusion> => [{ id: x.itemId, reason: 'orphan_result', detail: `a second result for ${x.callId}` }])
    .with({ _tag: 'LeftOutByAgent' }, (x): ReadonlyArray<Exclusion> => [{ id: x.itemId, reason: 'filtered', detail: `line ${x.line}: the agent itself does not send it (${x.reason})` }])
    .with({ _tag: 'SyntheticResult' }, { _tag: 'ThinkingConverted' }, () => [])
    .exhaustive()

/** What a session build hands to its report. */
export interface SessionOutcome {
  readonly file: string
  readonly format: SessionFormat
  readonly history: History
  readonly diagnostics: ReadonlyArray<Diagnostic>
  /** The history's counts are exact for the model (the build's tokenizer is exact). */
  readonly exact: boolean
}

/**
 * The report of a session build: every history item kept, the turns the conversion left out,
 * the file's problems and repairs as warnings.
 *
 * @category constructors
 * @since 0.2.0
 */
export const sessionReport = (o: SessionOutcome): Report<ReadonlyArray<ChatMessage>> => {
  const items = o.history.items
  const source = `${o.format}:${o.file}`
  const tokens = items.reduce((n, i) => n + i.tokens, 0)
  return layoutReport({
    output: items.map((i) => i.message),
    sources: items.map((i) => [i.id]),
    format: 'chat',
    tokenCount: tokens,
    tokenCountExact: o.exact,
    doc: { blocks: [turnsSection(items.map((i): Item => ({ packetId: i.id, prefix: '', text: '', tokens: i.tokens, message: i.message })))], joiner: '' },
    candidates: items.map((i) => ({ id: i.id, type: 'history', priority: 3, source, tokens: i.tokens })),
    excluded: o.history.repairs.flatMap(leftOut),
    warnings: sessionWarnings(o.file, o.diagnostics, o.history.repairs),
    // the history layout has no fixed text: this meter only ever counts ''
    meter: meter(estimateTokenizer()),
  })
}
