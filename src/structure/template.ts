/**
 * The template layout: your text with placeholders `{{instructions}}`, `{{task}}`,
 * `{{state}}`, `{{evidence}}`, `{{context}}`, `{{custom}}` and `{{output}}`. The template is
 * parsed once, when the structurer is made; an unknown or repeated placeholder is an error
 * then, not stray text in a prompt. Selected packets whose slot the template lacks are
 * reported as `not_in_layout`.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Locale } from '../config.js'
import { templateError, type TemplateError } from '../error.js'
import type { Document, Literal, Section } from './document.js'
import { bySlot, itemOf, prefixOf, type Slot } from './items.js'
import { labelsFor } from './labels.js'
import { section, OUTPUT_RANK, SLOT_LAYOUT } from './sectioned.js'
import { inputOrder, type Structurer } from './structurer.js'

/** A placeholder name. */
export type Placeholder = Slot | 'output'

/** The placeholders a template may use. */
export const PLACEHOLDERS: ReadonlyArray<Placeholder> = ['instructions', 'task', 'state', 'evidence', 'context', 'custom', 'output']

/** A parsed template: fixed text and placeholders, in order. */
export type Segment = { readonly _tag: 'Text'; readonly text: string } | { readonly _tag: 'Slot'; readonly name: Placeholder }

const PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g

/**
 * Parses a template.
 *
 * @example
 * parseTemplate('Rules:\n{{instructions}}\n\nQ: {{task}}') // Right([Text, Slot, Text, Slot])
 * parseTemplate('{{tasks}}') // Left(template placeholder {{tasks}}: unknown …)
 * @category constructors
 * @since 0.1.0
 */
export const parseTemplate = (text: string): E.Either<TemplateError, ReadonlyArray<Segment>> => {
  const segments: Segment[] = []
  const seen = new Set<string>()
  let last = 0
  for (const m of text.matchAll(PATTERN)) {
    const name = m[1]!
    if (!(PLACEHOLDERS as ReadonlyArray<string>).includes(name))
      return E.left(templateError(name, `unknown; known placeholders: ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`))
    if (seen.has(name)) return E.left(templateError(name, 'appears more than once; each placeholder may appear once'))
    seen.add(name)
    if (m.index > last) segments.push({ _tag: 'Text', text: text.slice(last, m.index) })
    segments.push({ _tag: 'Slot', name: name as Placeholder })
    last = m.index + m[0].length
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
  E.map(
    (segments: ReadonlyArray<Segment>): Structurer =>
      (s) => {
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
  )(parseTemplate(text))
