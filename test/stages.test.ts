/**
 * The stages agree with `build`: the layout is given once (to `gather`) and the stage
 * defaults are build's; a wrong stage order does not compile.
 */
import { pipe } from 'fp-ts/lib/function.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { GsscError } from '../src/error.js'
import { additional, history, instructions, task } from '../src/gather/builtins.js'
import type { Gathered, Request, Selected, Structured } from '../src/phase.js'
import { build, compress, gather, select, structure } from '../src/pipeline.js'
import type { BuildResult } from '../src/report.js'
import { minimal } from '../src/structure/minimal.js'
import { gpt4o, NOW, run } from './helpers.js'

const request: Request = {
  query: 'Why does the CI build fail after the rename?',
  instructions: 'You are the build assistant. Give the exact command to run.',
  history: Array.from({ length: 12 }, (_, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `turn ${i}: the build failed with error E${i} in step compile.` })),
  packets: [{ type: 'evidence', content: 'The compile script was renamed to build in v2. '.repeat(12), source: 'CHANGELOG.md' }],
}
const gatherers = [instructions(), task(), history(), additional()]

describe('stage defaults', () => {
  it('pipe(gather, select(), structure(), compress()) gives exactly what build gives, for the default and another layout', async () => {
    for (const layout of [undefined, minimal()]) {
      const settings = { tokenizer: gpt4o, now: NOW, config: { maxTokens: 260 }, ...(layout === undefined ? {} : { layout }) }
      const staged = await run(pipe(request, gather(gatherers, settings), select(), structure(), compress()))
      const built = await run(build(request, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 260 }, ...(layout === undefined ? {} : { structurer: layout }) }))
      expect(staged.output).toBe(built.output)
      expect(staged.tokenCount).toBe(built.tokenCount)
      expect(staged.excluded).toEqual(built.excluded)
    }
  })

  it('compress() honours enableCompression: off, no text is cut', async () => {
    // instructions are always selected; these do not fit whole
    const long: Request = { ...request, instructions: 'Always give the exact command to run, and say why it fails. '.repeat(30) }
    const off = await run(pipe(long, gather(gatherers, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 200, enableCompression: false } }), select(), structure(), compress()))
    const on = await run(pipe(long, gather(gatherers, { tokenizer: gpt4o, now: NOW, config: { maxTokens: 200 } }), select(), structure(), compress()))
    expect(off.truncated).toEqual([])
    expect(on.truncated.length).toBeGreaterThan(0)
    expect(off.tokenCount).toBeLessThanOrEqual(off.budget.available)
  })
})

describe('stage order', () => {
  it('types each phase, and a wrong order does not compile', () => {
    const g = gather(gatherers)(request)
    expectTypeOf(g).toEqualTypeOf<TE.TaskEither<GsscError, Gathered>>()
    expectTypeOf(select()(g)).toEqualTypeOf<TE.TaskEither<GsscError, Selected>>()
    expectTypeOf(structure()(select()(g))).toEqualTypeOf<TE.TaskEither<GsscError, Structured>>()
    expectTypeOf(compress()(structure()(select()(g)))).toEqualTypeOf<TE.TaskEither<GsscError, BuildResult<string>>>()
    // @ts-expect-error structure before select
    pipe(request, gather(gatherers), structure(), select())
    // @ts-expect-error compress straight after gather
    pipe(request, gather(gatherers), compress())
    // @ts-expect-error select twice
    pipe(request, gather(gatherers), select(), select())
    // @ts-expect-error a request is not a gathered phase
    pipe(request, select())
  })
})
