/**
 * The one-paragraph report printed after a context on stderr.
 *
 * @module
 */
import { describeWarning, type BuildResult } from '../report.js'

/** The summary: tokens used, packets kept, cut and dropped, failures, turns left out, warnings. @category utils */
export const summary = <O>(r: BuildResult<O>): string => {
  const dropped = r.packets.filter((p) => p.status === 'dropped').length
  const seen = new Set(r.packets.map((p) => p.id))
  const lines = [
    `gssc: ${r.tokenCount}${r.tokenCountExact ? '' : ' (approx.)'} of ${r.budget.available} tokens used (max ${r.budget.maxTokens}, ${r.budget.reserved} reserved); ${r.included.length} packets kept, ${r.truncated.length} truncated, ${dropped} dropped`,
    ...r.failures.map((f) => `gssc: gatherer ${f.gatherer} failed (${f.reason}): ${f.message}`),
    // left out before they became packets (turn ranges): not in the packet count above
    ...r.excluded.filter((e) => e.reason !== 'gatherer_failure' && !seen.has(e.id)).map((e) => `gssc: left out ${e.id} (${e.reason})${e.detail === undefined ? '' : `: ${e.detail}`}`),
    ...r.warnings.map((w) => `gssc: warning: ${describeWarning(w)}`),
  ]
  return `${lines.join('\n')}\n`
}
