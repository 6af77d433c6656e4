/**
 * The compress stage: run the compressor, then let the engine prove the budget (`settle`:
 * render, count exactly, give way by the measured excess while over), and report. The
 * reported count is always the exact count of the returned output, and it never exceeds the
 * available budget.
 *
 * @module
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { GsscError } from '../error.js'
import { itemCost, type Rendered, type Renderer } from '../output.js'
import type { Structured } from '../phase.js'
import type { BuildResult } from '../report.js'
import type { Document, Item, Section } from '../structure/document.js'
import type { Meter } from '../tokenize/meter.js'
import { runCompressor, type Compressor } from './compressor.js'
import { settle, type FitContext } from './engine.js'
import { finish } from './finish.js'
import { outputCounter } from './outputCount.js'
import { truncatePolicy, wholeItemsPolicy, type FitPolicy } from './policy.js'

/** Whether a compressor may cut inside items; the no-op compressor says no. */
export const cutsText = (c: Compressor): boolean => c.cutsText !== false

/** The policy the guard gives way by after a compressor. */
const guardPolicy = (c: Compressor): FitPolicy => c.policy ?? (cutsText(c) ? truncatePolicy : wholeItemsPolicy)

/**
 * A renderer with one render and one exact count per distinct document (the compressor's
 * checks and the guard's are often the same document), counting through the build's meter
 * and the renderer's provenance, so contents the build counted are not tokenized again.
 *
 * @category utils
 */
export const measured = <O>(renderer: Renderer<O>, meter: Meter) => {
  const rendered = new WeakMap<Document, { readonly out: Rendered<O>; readonly exact: number }>()
  return (d: Document): { readonly out: Rendered<O>; readonly exact: number } => {
    let r = rendered.get(d)
    if (r === undefined) {
      const out = renderer.render(d)
      rendered.set(d, (r = { out, exact: renderer.count(out.output, outputCounter(meter, out.spans)) }))
    }
    return r
  }
}

/**
 * The engine's context for a renderer: its exact count (one render per distinct document,
 * {@link measured}) and its cost of an item, within `available` tokens. Every builder that
 * fits rendered output (the compress stage, the chunk context, the workspace prompt) takes
 * its context here, so an item's cost has one definition: the renderer's.
 *
 * @example
 * const { ctx, render } = renderedFit(openaiRenderer(), meter, 4000)
 * render(fitDocument(doc, windowPolicy, ctx).doc).out.output
 * @category utils
 * @since 0.2.0
 */
export const renderedFit = <O>(renderer: Renderer<O>, meter: Meter, available: number): { readonly ctx: FitContext; readonly render: ReturnType<typeof measured<O>> } => {
  const render = measured(renderer, meter)
  const counter = { count: meter.text }
  return { ctx: { available, meter, measure: (d: Document) => render(d).exact, cost: (i: Item, sec: Section) => itemCost(renderer, i, sec, counter) }, render }
}

/**
 * Fits a structured build into its budget and renders it.
 *
 * @category constructors
 * @since 0.1.0
 */
export const fitAndRender =
  <O>(compressor: Compressor, renderer: Renderer<O>) =>
  (s: Structured): TE.TaskEither<GsscError, BuildResult<O>> => {
    const { ctx, render } = renderedFit(renderer, s.env.meter, s.env.available)
    return pipe(
      runCompressor(compressor, s.doc, ctx),
      TE.map((compressed) => {
        const done = settle(compressed, guardPolicy(compressor), ctx)
        return finish(s, done.doc, render(done.doc).out, done.tokens, renderer, done.nothingFits)
      }),
    )
  }
