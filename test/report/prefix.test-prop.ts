import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anthropicRenderer, openaiRenderer } from '../../src/formats.js'
import type { Renderer } from '../../src/output.js'
import { build } from '../../src/pipeline.js'
import { REQUEST_OVERHEAD } from '../../src/render/cost.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import type { AnthropicRequest, OpenAIMessage } from '../../src/render/wire.js'
import type { BuildResult } from '../../src/report.js'
import { unitKey } from '../../src/report/prefix.js'
import { stable } from '../../src/structure/stable.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { joinStress, seeded } from '../prop.js'

type Turn = { readonly role: 'user' | 'assistant'; readonly content: string }

const config = { maxTokens: 1_000_000, maxHistoryMessages: Number.POSITIVE_INFINITY }
const body = joinStress(12).filter((t) => t.trim() !== '')
const history = fc.array(fc.tuple(body, body), { maxLength: 5 }).map((pairs) => pairs.flatMap(([u, a]): Turn[] => [{ role: 'user', content: u }, { role: 'assistant', content: a }]))
const volatile = fc.record({ query: body, evidence: fc.array(body, { maxLength: 2 }), state: fc.option(body, { nil: undefined }) })

/** What changes between two requests: the next one appends, edits one message, or cuts the history's start. */
const next = (h: ReadonlyArray<Turn>) =>
  fc.oneof(
    fc.array(fc.tuple(body, body), { maxLength: 2 }).map((pairs) => [...h, ...pairs.flatMap(([u, a]): Turn[] => [{ role: 'user', content: u }, { role: 'assistant', content: a }])]),
    fc.tuple(fc.nat(Math.max(0, h.length - 1)), body).map(([i, t]) => h.map((m, k) => (k === i ? { ...m, content: t } : m))),
    fc.nat(h.length).map((n) => h.slice(n)),
  )

const renderers = { text: undefined, openai: openaiRenderer(), anthropic: anthropicRenderer() } as const
type Kind = keyof typeof renderers

type Volatile = { readonly query: string; readonly evidence: ReadonlyArray<string>; readonly state: string | undefined }

const request = (h: ReadonlyArray<Turn>, v: Volatile) => ({
  query: v.query,
  instructions: 'Answer from the evidence.',
  history: h,
  packets: [
    ...v.evidence.map((content, i) => ({ type: 'evidence' as const, content, source: `doc${i}`, relevance: 0.9 })),
    ...(v.state === undefined ? [] : [{ type: 'task_state' as const, content: v.state }]),
  ],
})

const buildOf = (kind: Kind, req: ReturnType<typeof request>, previous?: BuildResult<unknown>): Promise<BuildResult<unknown>> => {
  const common = { tokenizer: gpt4o, now: NOW, config, ...(previous === undefined ? {} : { previous }) }
  return kind === 'text' ? run(build(req, { ...common, structurer: stable() })) : run(build<unknown>(req, { ...common, renderer: renderers[kind] as Renderer<unknown> }))
}

/** The output's units as messages (Anthropic: the system prompt first), for an independent check. */
const messagesOf = (kind: Kind, output: unknown): ReadonlyArray<unknown> =>
  kind === 'openai' ? (output as OpenAIMessage[]) : [...((output as AnthropicRequest).system === undefined ? [] : [(output as AnthropicRequest).system]), ...(output as AnthropicRequest).messages]

/** The exact count of the first `k` units of a chat output, as the provider's request count has it. */
const countFirst = (kind: Kind, output: unknown, k: number): number => {
  if (kind === 'openai') return countOpenAI((output as OpenAIMessage[]).slice(0, k), gpt4o) - REQUEST_OVERHEAD
  const r = output as AnthropicRequest
  const system = r.system === undefined ? 0 : 1
  return countAnthropic({ ...(r.system !== undefined && k > 0 ? { system: r.system } : {}), messages: r.messages.slice(0, Math.max(0, k - system)) }, gpt4o) - REQUEST_OVERHEAD
}

describe('the cache-stable prefix, for any conversation', () => {
  it('equal stable parts hash equal, whatever the question, evidence and state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Kind>('text', 'openai', 'anthropic'), history, volatile, volatile, async (kind, h, v1, v2) => {
        const a = await buildOf(kind, request(h, v1))
        const b = await buildOf(kind, request(h, v2))
        expect(b.prefix.hash).toBe(a.prefix.hash)
        expect(b.prefix.units).toEqual(a.prefix.units)
      }),
      seeded(60),
    )
  })

  it('the identical run is byte for byte in both outputs, as long as it can be, and its token count is exact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('text', 'openai', 'anthropic'),
        history.chain((h) => fc.tuple(fc.constant(h), next(h))),
        volatile,
        volatile,
        async (kind, [h1, h2], v1, v2) => {
          const first = await buildOf(kind, request(h1, v1))
          const second = await buildOf(kind, request(h2, v2), first)
          const id = second.prefix.identical!
          expect(id.units).toBeLessThanOrEqual(Math.min(first.prefix.units.length, second.prefix.units.length))
          if (kind === 'text') {
            const out1 = first.output as string
            const out2 = second.output as string
            const shared = out2.slice(0, id.chars)
            expect(out1.startsWith(shared)).toBe(true)
            expect(id.tokens).toBe(gpt4o.count(shared))
            return
          }
          const m1 = messagesOf(kind, first.output).map(unitKey)
          const m2 = messagesOf(kind, second.output).map(unitKey)
          expect(m2.slice(0, id.units)).toEqual(m1.slice(0, id.units))
          // maximal: the next unit differs, unless one prefix ends there
          if (id.units < Math.min(first.prefix.units.length, second.prefix.units.length)) expect(m2[id.units]).not.toBe(m1[id.units])
          expect(id.tokens).toBe(countFirst(kind, second.output, id.units))
          expect(second.prefix.tokens).toBe(countFirst(kind, second.output, second.prefix.units.length))
        },
      ),
      seeded(80),
    )
  })
})
