/**
 * Chunk renderers as function values: the seed's `canRender` / `getRole` / `render` contract
 * as a plain record. The first renderer in a list whose `canRender` accepts a chunk renders
 * it; callers put their own before {@link DEFAULT_RENDERERS}, so theirs take precedence. The
 * defaults (one per chunk type) cover every chunk, so a lookup never fails.
 *
 * @module
 */
import type { ImagePart, TextPart } from '../message.js'
import { classifyChunk, roleOfTag, type ChunkRole } from './classify.js'
import { contentImages, contentText } from './content.js'
import { CHUNK_TYPES, type ChunkType, type MemoryChunk } from './model.js'
import { renderXml } from './xml.js'

/** What a renderer returns: the text of the chunk, or text and image parts. */
export type RenderedChunk = string | ReadonlyArray<TextPart | ImagePart>

/** Renders the chunks it accepts. All three functions must be pure. */
export interface ChunkRenderer {
  readonly canRender: (chunk: MemoryChunk) => boolean
  readonly getRole: (chunk: MemoryChunk) => ChunkRole
  readonly render: (chunk: MemoryChunk) => RenderedChunk
}

/**
 * The default rendering of a (leaf) chunk: its XML element (see `./classify.ts` for tags,
 * attributes and roles), then its images, in user turns only (providers take images from
 * users alone; elsewhere the element's `[image]` marker stands for them).
 *
 * @example
 * renderChunk(toolCallChunk)
 * // [{ _tag: 'Text', text: '<tool_call id="chunk_3" action="tool_call" tool="read_file" call_id="call_1" status="pending">\n{"path":"/src/main.ts"}\n</tool_call>' }]
 * @category renderers
 * @since 0.1.0
 */
export const renderChunk = (chunk: MemoryChunk): ReadonlyArray<TextPart | ImagePart> => renderDefault(chunk).parts

/** A leaf's default rendering, role and call id from one classification. @internal */
export const renderDefault = (
  chunk: MemoryChunk,
): { readonly role: ChunkRole; readonly parts: ReadonlyArray<TextPart | ImagePart>; readonly callId: string | undefined } => {
  const spec = classifyChunk(chunk)
  const role = roleOfTag(spec.tag)
  const xml: TextPart = { _tag: 'Text', text: renderXml({ tag: spec.tag, attrs: spec.attrs, body: contentText(chunk.content, spec.consumed) }) }
  return { role, parts: role === 'user' ? [xml, ...contentImages(chunk.content)] : [xml], callId: spec.callId }
}

const forType = (type: ChunkType): ChunkRenderer => ({
  canRender: (chunk) => chunk.type === type,
  getRole: (chunk) => roleOfTag(classifyChunk(chunk).tag),
  render: renderChunk,
})

/**
 * One renderer per chunk type (System, Agent, Workflow, Delegation, Environment, WorkingFlow,
 * Output), as in the seed.
 *
 * @category renderers
 * @since 0.1.0
 */
export const DEFAULT_RENDERERS: ReadonlyArray<ChunkRenderer> = CHUNK_TYPES.map(forType)

/**
 * The renderer for a chunk: the first of `renderers` that accepts it, else the default for its
 * type.
 *
 * @example
 * const mine: ChunkRenderer = { canRender: (c) => c.metadata.custom?.myType === true, getRole: () => 'assistant', render: (c) => `<mine id="${c.id}"/>` }
 * rendererFor([mine], chunk)
 * @category renderers
 * @since 0.1.0
 */
export const rendererFor = (renderers: ReadonlyArray<ChunkRenderer>, chunk: MemoryChunk): ChunkRenderer =>
  renderers.find((r) => r.canRender(chunk)) ?? DEFAULT_RENDERERS.find((r) => r.canRender(chunk))!

/** A renderer's output as parts. @category utils */
export const renderedParts = (out: RenderedChunk): ReadonlyArray<TextPart | ImagePart> =>
  typeof out === 'string' ? [{ _tag: 'Text', text: out }] : out
