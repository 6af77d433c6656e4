/**
 * The compress stage: run the compressor, render, count the output exactly, and — if it is
 * still over budget (BPE is not additive, a user's compressor may not cut enough) — shrink
 * by the measured excess and count again. The reported count is always the count of the
 * returned output, and it never exceeds the available budget.
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import type { Rendered, Renderer } from '../output.js'
import type { Structured } from '../phase.js'
import type { BuildResult } from '../report.js'
import { estimate, sectionsOf, type Document } from '../structure/document.js'
import { runCompressor, shrinkDocument, type Compressor } from './compressor.js'
import { finish } from './finish.js'
import { outputCounter } from './outputCount.js'

/** After this many rounds the guard stops cutting text and drops whole items only. */
const CUT_ROUNDS = 6

/** Whether a compressor may cut inside items; the no-op compressor says no. */
export const cutsText = (c: Compressor): boolean => c.cutsText !== false

/**
 * Fits a structured build into its budget and renders it.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fitAndRender =
  <O>(compressor: Compressor, renderer: Renderer<O>) =>
  (s: Structured): TE.TaskEither<GsscError, BuildResult<O>> => {
    const { available, meter } = s.env
    // one render and one exact count per distinct document: the compressor's first check
    // and the final check are usually the same document
    const rendered = new WeakMap<Document, { readonly out: Rendered<O>; readonly exact: number }>()
    const renderOnce = (d: Document): { readonly out: Rendered<O>; readonly exact: number } => {
      let r = rendered.get(d)
      if (r === undefined) {
        const out = renderer.render(d)
        // exact: the contents the selector counted are not tokenized again (see outputCount)
        rendered.set(d, (r = { out, exact: renderer.count(out.output, outputCounter(meter, out.spans)) }))
      }
      return r
    }
    const guard = (compressed: Document): BuildResult<O> => {
      let doc = compressed
      for (let round = 0; ; round++) {
        const { out, exact } = renderOnce(doc)
        if (exact <= available) return finish(s, doc, out, exact, renderer)
        if (isEmpty(doc)) {
          // even the fixed text (a template's literals) does not fit: return nothing rather than overflow
          const empty = emptied(doc)
          const r = renderOnce(empty)
          return finish(s, empty, r.out, r.exact, renderer, true)
        }
        // shrink by what the exact count says is missing, never by less than the estimate's drift
        const drift = Math.max(0, exact - estimate(doc, meter))
        doc = shrinkDocument(doc, exact - available + (round > 1 ? drift : 0), meter, round < CUT_ROUNDS && cutsText(compressor))
      }
    }
    return pipe(runCompressor(compressor, s.doc, { available, meter, measure: (d) => renderOnce(d).exact }), TE.map(guard))
  }

const isEmpty = (doc: Document): boolean => sectionsOf(doc).every((sec) => sec.items.length === 0)

const emptied = (doc: Document): Document => ({ blocks: [], joiner: doc.joiner })
