/**
 * The one-paragraph report printed after a context on stderr.
 *
 * @module
 */
import type { BuildResult } from '../report.js'

/** @category utils */
export const summary = <O>(r: BuildResult<O>): string => {
  const dropped = r.packets.filter((p) => p.status === 'dropped').length
  const lines = [
    `gssc: ${r.tokenCount}${r.tokenCountExact ? '' : ' (approx.)'} of ${r.budget.available} tokens used (max ${r.budget.maxTokens}, ${r.budget.reserved} reserved); ${r.included.length} packets kept, ${r.truncated.length} truncated, ${dropped} dropped`,
    ...r.failures.map((f) => `gssc: gatherer ${f.gatherer} failed (${f.reason}): ${f.message}`),
    ...r.warnings.map((w) => `gssc: warning: ${w.message}`),
  ]
  return `${lines.join('\n')}\n`
}
