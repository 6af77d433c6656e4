/**
 * The template layout: your text with placeholders `{{instructions}}`, `{{task}}`,
 * `{{state}}`, `{{evidence}}`, `{{context}}`, `{{custom}}` and `{{output}}`. The template is
 * parsed once, when the structurer is made; an unknown, repeated or unclosed placeholder is
 * an error then, not stray text in a prompt. Selected packets whose slot the template lacks are
 * reported as `not_in_layout`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Locale } from '../config.js'
import { show, templateError, type TemplateError } from '../error.js'
import type { Document, Literal, Section } from './document.js'
import type { Packet } from '../packet.js'
import type { Env, Selected } from '../phase.js'
import { bySlot, itemOf, prefixOf, slotOf, type Slot } from './items.js'
import { labelsFor } from './labels.js'
import { section, OUTPUT_RANK, SLOT_LAYOUT } from './sectioned.js'
import { inputOrder, type Decoration, type Structurer } from './structurer.js'

/** A placeholder name. */
export type Placeholder = Slot | 'output'

/** The placeholders a template may use. */
export const PLACEHOLDERS: ReadonlyArray<Placeholder> = ['instructions', 'task', 'state', 'evidence', 'context', 'custom', 'output']

/** A parsed template: fixed text and placeholders, in order. */
export type Segment = { readonly _tag: 'Text'; readonly text: string } | { readonly _tag: 'Slot'; readonly name: Placeholder }

/** The placeholder starting exactly at `at` (a fresh sticky pattern per call: no shared state). */
const placeholderAt = (text: string, at: number): RegExpExecArray | null => {
  const pattern = /\{\{\s*([^{}]*?)\s*\}\}/y
  pattern.lastIndex = at
  return pattern.exec(text)
}

/** 1-based line and column of an offset, for an error. */
const where = (text: string, offset: number): string => {
  const before = text.slice(0, offset).split('\n')
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`
}

/**
 * Parses a template. Every `{{` must open a known placeholder closed by `}}` on the spot: an
 * unclosed `{{task` (or a stray `{{`) is an error naming its line and column, not literal text
 * sent to the model.
 *
 * @example
 * parseTemplate('Rules:\n{{instructions}}\n\nQ: {{task}}') // Right([Text, Slot, Text, Slot])
 * parseTemplate('{{tasks}}') // Left(template placeholder {{tasks}}: unknown …)
 * parseTemplate('Q: {{task') // Left(template placeholder {{task}}: not closed with }} (line 1, column 4))
 * @category constructors
 * @since 0.1.0
 */
export const parseTemplate = (text: string): E.Either<TemplateError, ReadonlyArray<Segment>> => {
  if (typeof text !== 'string') return E.left({ _tag: 'TemplateError', placeholder: '', message: `template: must be a string (got ${show(text)})` })
  const segments: Segment[] = []
  const seen = new Set<string>()
  let last = 0
  for (let at = text.indexOf('{{'); at >= 0; at = text.indexOf('{{', last)) {
    const m = placeholderAt(text, at)
    if (m === null) {
      const name = /^\{\{\s*([^\s{}]{0,40})/.exec(text.slice(at))?.[1] ?? ''
      return E.left(templateError(name, `not closed with }} (${where(text, at)}); every {{ must open a placeholder such as {{task}}`))
    }
    const name = m[1]!
    if (!(PLACEHOLDERS as ReadonlyArray<string>).includes(name))
      return E.left(templateError(name, `unknown (${where(text, at)}); known placeholders: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`))
    if (seen.has(name)) return E.left(templateError(name, `appears more than once (${where(text, at)}); each placeholder may appear once`))
    seen.add(name)
    if (at > last) segments.push({ _tag: 'Text', text: text.slice(last, at) })
    segments.push({ _tag: 'Slot', name: name as Placeholder })
    last = at + m[0].length
  }
  if (last < text.length) segments.push({ _tag: 'Text', text: text.slice(last) })
  return E.right(segments)
}

/**
 * A structurer from a template text.
 *
 * @example
 * const s = template('{{instructions}}\n\nQuestion: {{task}}\n\nSources:\n{{evidence}}')
 * @category constructors
 * @since 0.1.0
 */
export const template = (
  text: string,
  options: { readonly locale?: Locale } = {},
): E.Either<TemplateError, Structurer> =>
  E.map((segments: ReadonlyArray<Segment>): Structurer => {
    const slotted = new Set<string>(segments.flatMap((seg) => (seg._tag === 'Slot' ? [seg.name] : [])))
    return Object.assign(
      (s: Selected): Document => {
        const labels = labelsFor(options.locale ?? s.env.config.locale)
        const slots = bySlot(s.selected, inputOrder(s))
        const blocks = segments.map((seg): Section | Literal => {
          if (seg._tag === 'Text') return { _tag: 'Literal', text: seg.text }
          if (seg.name === 'output')
            return section(
              {
                name: 'output',
                rank: OUTPUT_RANK,
                head: '',
                channel: 'system',
                omitWhenEmpty: false,
                items: [{ prefix: '', text: labels.outputFormat, tokens: s.env.meter.text(labels.outputFormat) }],
              },
              labels,
            )
          return section(
            {
              name: seg.name,
              head: '',
              omitWhenEmpty: false,
              items: (slots.get(seg.name) ?? []).map((x) => itemOf(x, prefixOf(x.packet, labels))),
              ...SLOT_LAYOUT[seg.name],
            },
            labels,
          )
        })
        return { blocks, joiner: '' } satisfies Document
      },
      {
        // a packet whose slot the template lacks is not shown
        decorate: (p: Packet, env: Env): Decoration | undefined => {
          const slot = slotOf(p)
          return slotted.has(slot) ? { section: slot, prefix: prefixOf(p, labelsFor(options.locale ?? env.config.locale)), separator: '\n' } : undefined
        },
      },
    )
  })(parseTemplate(text))
