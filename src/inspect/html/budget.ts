/**
 * The report's stacked budget bar: the whole `maxTokens` as one bar, split into the
 * sections, the tokens between them, the free room, and the reserve kept for the answer.
 *
 * @module
 */
import { match } from 'ts-pattern'
import type { ExplainTable } from '../explain.js'
import { attr, escapeHtml } from './escape.js'
import { num, pct } from '../format.js'

/** One part of the bar. `tokens` is the real count; `fraction` is its width, a share of `maxTokens`. */
export type BudgetSegment =
  | { readonly _tag: 'Section'; readonly name: string; readonly color: number; readonly tokens: number; readonly fraction: number }
  | { readonly _tag: 'Other'; readonly tokens: number; readonly fraction: number }
  | { readonly _tag: 'Free'; readonly tokens: number; readonly fraction: number }
  | { readonly _tag: 'Reserved'; readonly tokens: number; readonly fraction: number }

/** Section colours (hues), in layout order; the style sheet defines `--c0` … `--c7`. */
export const SECTION_COLORS = 8

/**
 * The bar's parts. Section estimates can add up to a little more than the exact count (BPE
 * merges across joins); their widths are then scaled down so the bar still adds up to
 * `used + free + reserved = maxTokens`.
 *
 * @category constructors
 */
export const budgetSegments = (t: ExplainTable): ReadonlyArray<BudgetSegment> => {
  const { maxTokens, used, free, reserved, other } = t.totals
  const whole = Math.max(1, maxTokens)
  const shown = t.sections.filter((s) => s.rendered)
  const sum = shown.reduce((n, s) => n + s.tokens, 0)
  const scale = sum > used && sum > 0 ? used / sum : 1
  return [
    ...shown.map((s, i): BudgetSegment => ({ _tag: 'Section', name: s.name, color: i % SECTION_COLORS, tokens: s.tokens, fraction: (s.tokens * scale) / whole })),
    ...(other > 0 ? [{ _tag: 'Other' as const, tokens: other, fraction: other / whole }] : []),
    { _tag: 'Free', tokens: Math.max(0, free), fraction: Math.max(0, free) / whole },
    { _tag: 'Reserved', tokens: reserved, fraction: reserved / whole },
  ]
}


const describe = (s: BudgetSegment): { readonly label: string; readonly cls: string } =>
  match(s)
    .with({ _tag: 'Section' }, (x) => ({ label: x.name, cls: `seg c${x.color}` }))
    .with({ _tag: 'Other' }, () => ({ label: 'joins & framing', cls: 'seg other' }))
    .with({ _tag: 'Free' }, () => ({ label: 'free', cls: 'seg free' }))
    .with({ _tag: 'Reserved' }, () => ({ label: 'reserved for the answer', cls: 'seg reserved' }))
    .exhaustive()

/**
 * The bar and its legend, as HTML.
 *
 * @category constructors
 */
export const budgetHtml = (t: ExplainTable): string => {
  const segments = budgetSegments(t)
  const pctOf = (s: BudgetSegment): string => `${(s.fraction * 100).toFixed(2)}%`
  const bar = segments
    .filter((s) => s.fraction > 0)
    .map((s) => {
      const d = describe(s)
      return `<div${attr('class', d.cls)}${attr('style', `width:${pctOf(s)}`)}${attr('title', `${d.label}: ${num(s.tokens)} tokens`)}${attr('data-segment', d.label)}${attr('data-tokens', s.tokens)}></div>`
    })
    .join('')
  const legend = segments
    .map((s) => {
      const d = describe(s)
      return `<li><span${attr('class', `swatch ${d.cls}`)}></span>${escapeHtml(d.label)} <b>${num(s.tokens)}</b></li>`
    })
    .join('')
  return `<div class="budget" role="img"${attr('aria-label', `budget of ${num(t.totals.maxTokens)} tokens`)}>${bar}</div><ul class="legend">${legend}</ul>`
}

/**
 * The explain table's section rows, as an HTML table with the bar's colours.
 *
 * @category constructors
 */
export const sectionsHtml = (t: ExplainTable): string => {
  // the same colour index as the bar: the position among the sections in the output
  const shown = t.sections.filter((s) => s.rendered).map((s) => s.name)
  const rows = t.sections
    .map((s) => {
      const swatch = s.rendered ? `<span${attr('class', `swatch c${shown.indexOf(s.name) % SECTION_COLORS}`)}></span>` : '<span class="swatch"></span>'
      return (
        `<tr${attr('data-section', s.name)}><td>${swatch}${escapeHtml(s.name)}${s.rendered ? '' : ' <span class="none">(not in the output)</span>'}</td>` +
        `<td>${s.rank ?? '–'}</td><td>${s.kept}</td><td>${s.truncated}</td><td>${s.dropped}</td><td>${num(s.tokens)}</td><td>${pct(s.share)}</td></tr>`
      )
    })
    .join('')
  return `<table class="sections"><thead><tr><th>Section</th><th>Rank</th><th>Kept</th><th>Truncated</th><th>Dropped</th><th>Tokens</th><th>Share of available</th></tr></thead><tbody>${rows}</tbody></table>`
}
