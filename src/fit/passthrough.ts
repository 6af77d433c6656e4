/**
 * The renderer of `fitMessages`: the kept messages written back in the caller's own shape.
 * Each item of the layout is one message (the leading system turns too: they are not joined
 * into one), written by the shape's adapter, which round-trips what it read unchanged; only a
 * message the build changed (a cut, a summary) is written anew. Its count is the provider's
 * cost of those messages (`messageCost`, the one definition of a message's cost) plus the
 * request overhead, so the engine settles on the count of exactly what is returned.
 *
 * With `cache` (Anthropic messages), breakpoints are placed on the messages before they are
 * written (`../render/breakpoints.ts`): the last block of the request, which the next request
 * starts with, and the system prompt's last block; each marked message is written anew.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import type { CacheControl, ChatMessage } from '../message.js'
import type { Renderer } from '../output.js'
import { lastCacheable, placeBreakpoints, type Placed } from '../render/breakpoints.js'
import { conversationCost, messageCost } from '../render/cost.js'
import { unitKey } from '../report/prefix.js'
import { sectionsOf, type Item } from '../structure/document.js'
import { turnOf } from '../structure/messages.js'
import type { Decoded } from '../adapters/shape.js'
import type { Codec } from './codecs.js'

/** The message an item shows: its own, or a plain one of its role once cut. */
const messageOf = (i: Item): ChatMessage => (i.cut === undefined && i.message !== undefined ? i.message : turnOf(i))

/** Breakpoints to place: their lifetime, and the lifetimes of those the tool definitions carry. */
export interface PassthroughCache {
  readonly control: CacheControl
  readonly earlier: ReadonlyArray<string>
}

/** Breakpoints at the end of the request and of the system prompt, where the API allows. */
const withBreakpoints = (messages: ReadonlyArray<ChatMessage>, cache: PassthroughCache): Placed => {
  const last = messages.length - 1
  const wanted = [lastCacheable(messages, last), lastCacheable(messages, last, 'system')].flatMap((w) => (w === undefined ? [] : [w]))
  return placeBreakpoints(messages, wanted, cache.control, cache.earlier)
}

/**
 * The renderer, and where it placed breakpoints in an output it returned (with `cache`).
 *
 * @category constructors
 * @since 0.2.0
 */
export const passthrough = (
  codec: Codec,
  input: unknown,
  decoded: Decoded,
  cache?: PassthroughCache,
): Renderer<unknown> & { readonly placed: (output: unknown) => Placed | undefined } => {
  // which input message each read message is, so an unchanged one can be handed back as it was
  const indexOf = new Map(decoded.messages.map((m, i) => [m, decoded.sources[i]]))
  // what each output was written from, for its count (outputs are fresh objects per render)
  const written = new WeakMap<object, { readonly messages: ReadonlyArray<ChatMessage>; readonly placed?: Placed }>()
  const options = { format: codec.format }
  return {
    format: decoded.shape,
    shape: 'messages',
    render: (doc) => {
      const items = sectionsOf(doc).flatMap((s) => s.items)
      const placed = cache === undefined ? undefined : withBreakpoints(items.map(messageOf), cache)
      const messages = placed?.messages ?? items.map(messageOf)
      const origin = messages.map((m) => {
        const at = indexOf.get(m)
        return typeof at === 'number' ? at : undefined
      })
      const out = codec.write(messages, input, origin)
      // a message the adapter read comes back as it was; anything else here is plain text of a role
      if (E.isLeft(out)) throw new Error(`fitMessages: cannot write the fitted messages back as ${decoded.shape}: ${out.left.message}`)
      const output = out.right as object
      written.set(output, placed === undefined ? { messages } : { messages, placed })
      return { output, sources: items.map((i) => (i.packetId === undefined ? [] : [i.packetId])), spans: new Map() }
    },
    count: (output, counter) => conversationCost(written.get(output as object)?.messages ?? [], counter, options),
    cost: (item, _section, counter) => messageCost(messageOf(item), counter, options),
    units: (output, counter) => (written.get(output as object)?.messages ?? []).map((m) => ({ key: unitKey(m), tokens: messageCost(m, counter, options) })),
    placed: (output) => written.get(output as object)?.placed,
  }
}
