import { describe, expect, it } from 'vitest'
import { message, text, type ChatMessage } from '../../src/message.js'
import { replayThinking } from '../../src/session/thinking.js'

const origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' }
const turn: ChatMessage = message(
  'assistant',
  [
    { _tag: 'Thinking', text: 'Plan: read the file.', signature: 'sig' },
    { _tag: 'Thinking', text: '   ' },
    { _tag: 'Thinking', text: '', signature: 'opaque', redacted: true },
    text('Reading it.'),
  ],
  { origin },
)

describe('replayThinking', () => {
  it('keeps every block, redacted ones included, for the same model', () => {
    expect(replayThinking(origin)(turn)).toEqual({ message: turn, toText: 0, dropped: 0 })
    // naming the model is enough; naming another model, or none, is not
    expect(replayThinking({ model: 'claude-sonnet-4-5' })(turn).message).toBe(turn)
    expect(replayThinking({ provider: 'anthropic', model: 'claude-opus-4-5' })(turn).message).not.toBe(turn)
    expect(replayThinking({ provider: 'anthropic' })(turn).message).not.toBe(turn)
  })

  it('turns another model’s thinking into text, dropping empty and redacted blocks', () => {
    const r = replayThinking({ provider: 'openai', model: 'gpt-5' })(turn)
    expect(r.message.parts).toEqual([text('Plan: read the file.'), text('Reading it.')])
    expect([r.toText, r.dropped]).toEqual([1, 2])
    expect(turn.parts.length).toBe(4)
  })

  it('drops it all when asked, and treats a missing target as another model', () => {
    const r = replayThinking(undefined, 'drop')(turn)
    expect(r.message.parts).toEqual([text('Reading it.')])
    expect([r.toText, r.dropped]).toEqual([0, 3])
  })

  it('leaves other turns alone', () => {
    const user = message('user', 'hi')
    expect(replayThinking(undefined)(user).message).toBe(user)
  })
})
