/**
 * Renderers: the last step, from the structured document to what the user sends. A renderer
 * returns its output together with where each piece came from (provenance), and counts its
 * own output, so the reported token count is the count of exactly what is returned and
 * nothing downstream (the exact count, the inspector, the CLI) ever searches or re-parses the
 * rendered text.
 *
 * @module
 */
import type { Counter } from './render/cost.js'
import type { Finding } from './render/finding.js'
import { renderBlocks, type Document, type Item, type Section, type Span } from './structure/document.js'

export type { Counter }

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * An output and its provenance.
 *
 * - `sources[i]` lists the ids of the packets the i-th *turn* of the output shows, in order:
 *   the one text of a text output; the messages of an OpenAI request; the system prompt (when
 *   there is one) then the messages of an Anthropic request — the turns the inspector shows.
 * - `spans` maps each string of the output that was joined from item texts (a text prompt, a
 *   system prompt) to where each item's text lies in it, so the exact count can reuse the
 *   counts the build already took.
 * - `findings` lists what the renderer changed so the provider accepts the request (a tool
 *   call given a synthetic result, a leading user turn inserted…), each with the id of the
 *   first packet of the turn it changed; the build's report carries them as warnings.
 */
export interface Rendered<O> {
  readonly output: O
  readonly sources: ReadonlyArray<ReadonlyArray<string>>
  readonly spans: ReadonlyMap<string, ReadonlyArray<Span>>
  readonly findings?: ReadonlyArray<Finding>
}

/** Turns a document into output of type `O` with its provenance, and counts that output's tokens. */
export interface Renderer<O> {
  readonly format: string
  /**
   * What the output is: one text (default), or chat messages. `build` lays messages out with
   * `chat()`, which adds nothing the user did not give, and text with the seed's `sectioned()`.
   */
  readonly shape?: 'text' | 'messages'
  readonly render: (doc: Document) => Rendered<O>
  /** The exact count of an output; `counter` counts one string (the build passes its own). */
  readonly count: (output: O, counter: Counter) => number
  /**
   * What one item adds to the output, before it is rendered: the one definition of an item's
   * (a message's) cost that selection and fitting use. Absent: its prefix, text and one
   * separator ({@link textCost}), what it adds to a text prompt.
   */
  readonly cost?: (item: Item, section: Section, counter: Counter) => number
  /**
   * A chat output as the turns a provider reads, in order and one for each entry of the
   * rendered `sources`: what decides each turn's bytes (`key`) and its exact tokens (the
   * output's count is their sum plus the request's fixed overhead). The build's cache-stable
   * prefix report reads it (`src/report/prefix.ts`); absent, a chat output reports none.
   */
  readonly units?: (output: O, counter: Counter) => ReadonlyArray<{ readonly key: string; readonly tokens: number }>
}

/**
 * What an item adds to a text prompt: its decoration, its text and one separator, each
 * counted on its own (BPE may merge a token across a join; the exact count settles that).
 *
 * @category utils
 * @since 0.2.0
 */
export const textCost = (item: Item, section: Section, counter: Counter): number =>
  counter.count(item.prefix) + (item.suffix === undefined ? 0 : counter.count(item.suffix)) + item.tokens + counter.count(section.separator)

/**
 * A renderer's cost of an item, or the text cost when it has none.
 *
 * @category utils
 * @since 0.2.0
 */
export const itemCost = <O>(renderer: Renderer<O>, item: Item, section: Section, counter: Counter): number =>
  (renderer.cost ?? textCost)(item, section, counter)

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * One prompt string; its count is the tokenizer's count of that string.
 *
 * @category constructors
 * @since 0.1.0
 */
export const textRenderer: Renderer<string> = {
  format: 'text',
  render: (doc) => {
    const { text, spans, ids } = renderBlocks(doc.blocks, doc.joiner)
    return { output: text, sources: [ids], spans: new Map([[text, spans]]) }
  },
  count: (output, counter) => counter.count(output),
}
