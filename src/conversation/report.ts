/**
 * The conversation builder's report in the one vocabulary (`layoutReport`): the composed
 * prompt and each stored turn a candidate named by its packet id (`conversation:system`,
 * `conversation:<index in messages>`, as the conversation gatherer names them), what the
 * reading left out and why, and the renderer's repairs as warnings naming the turn. The
 * builder counts nothing, so the report's count is the chars/4 estimate of the messages.
 *
 * @module
 */
import type { ConversationGathered } from '../gather/conversation.js'
import { layoutReport, type Candidate } from '../layoutReport.js'
import { messageText } from '../message.js'
import type { PacketInput } from '../packet.js'
import type { Warning } from '../phase.js'
import { countOpenAI } from '../render/count.js'
import type { OpenAIRendered } from '../render/openai.js'
import type { OpenAIMessage } from '../render/wire.js'
import type { Report } from '../report.js'
import { turnsSection, type Item, type Section } from '../structure/document.js'
import { meter } from '../tokenize/meter.js'
import { estimateTokenizer } from '../tokenize/tokenizer.js'

/**
 * The report of a conversation build: `g` the reading, `r` what the OpenAI renderer made of it.
 *
 * @category constructors
 * @since 0.2.0
 */
export const conversationReport = (g: ConversationGathered, r: OpenAIRendered): Report<ReadonlyArray<OpenAIMessage>> => {
  const m = meter(estimateTokenizer())
  const prompt = g.prompt
  // the chat the renderer read: the prompt first, then the turns
  const ids: ReadonlyArray<string> = [...(prompt === undefined ? [] : ['conversation:system']), ...g.turns.map((t) => t.packet.id!)]
  const promptItems: ReadonlyArray<Item> = prompt === undefined ? [] : [{ packetId: 'conversation:system', prefix: '', text: prompt.content, tokens: m.text(prompt.content), pinned: true }]
  const system: Section = { ...turnsSection(promptItems), name: 'instructions', channel: 'system' }
  const history = turnsSection(g.turns.map((t): Item => ({ packetId: t.packet.id!, prefix: '', text: '', tokens: m.text(messageText(t.message)), message: t.message })))
  const candidate = (p: PacketInput, tokens: number): Candidate => ({ id: p.id!, type: p.type, priority: p.type === 'instructions' ? 0 : 3, source: p.source ?? 'conversation', tokens })
  return layoutReport({
    output: r.messages,
    sources: r.sources.map((i) => (ids[i] === undefined ? [] : [ids[i]!])),
    format: 'openai',
    tokenCount: countOpenAI(r.messages, { count: m.text }),
    tokenCountExact: false,
    doc: { blocks: [system, history], joiner: '' },
    candidates: [...promptItems.map((i) => candidate(prompt!, i.tokens)), ...g.turns.map((t) => candidate(t.packet, m.text(messageText(t.message))))],
    excluded: g.excluded,
    warnings: r.findings.map((f): Warning => (ids[f.index] === undefined ? f : { ...f, id: ids[f.index]! })),
    meter: m,
  })
}
