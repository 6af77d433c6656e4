import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { image, message, text, toolCall, toolResult, type ChatMessage } from '../../src/message.js'
import { toAnthropic } from '../../src/render/anthropic.js'
import { conversationCost, messageCost, REQUEST_OVERHEAD } from '../../src/render/cost.js'
import { countAnthropic, countOpenAI } from '../../src/render/count.js'
import { imageSize } from '../../src/render/imageSize.js'
import { ANTHROPIC_IMAGE_MAX, anthropicImageTokens, OPENAI_IMAGE_MAX, openAIImageTokens } from '../../src/render/imageTokens.js'
import { toOpenAI } from '../../src/render/openai.js'
import { repair } from '../../src/render/repair.js'
import type { OpenAIMessage } from '../../src/render/wire.js'
import { createTokenizer } from '../../src/tokenize/tokenizer.js'
import { gifBase64, gpt4o, jpegBase64, piMessages, pngBase64, webpBase64 } from './fixtures.js'

// The OpenAI cookbook's "How to count tokens with tiktoken" example; its output, checked
// against the API's usage.prompt_tokens, is 129 for gpt-4 / gpt-3.5-turbo and 124 for gpt-4o.
const cookbook: Array<OpenAIMessage> = [
  { role: 'system', content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.' },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
  { role: 'system', name: 'example_user', content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
  { role: 'system', name: 'example_assistant', content: "Let's talk later when we're less busy about how to do better." },
  { role: 'user', content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
]

describe('countOpenAI', () => {
  it('matches the prompt_tokens the OpenAI API reported for the cookbook example', () => {
    const gpt4 = E.getOrElseW(() => gpt4o)(createTokenizer('gpt-4'))
    expect(countOpenAI(cookbook, gpt4)).toBe(129)
    expect(countOpenAI(cookbook, gpt4o)).toBe(124)
  })
})

describe('messageCost', () => {
  it('charges 3 per message plus role and content tokens, and 1 more plus the name for a name', () => {
    expect(messageCost(message('user', 'Hello'), gpt4o, { format: 'openai' })).toBe(5)
    expect(messageCost(message('user', 'Hello', { name: 'ada' }), gpt4o, { format: 'openai' })).toBe(5 + 1 + gpt4o.count('ada'))
    expect(REQUEST_OVERHEAD).toBe(3)
  })

  it('charges a tool call 3 plus its id, name and arguments JSON', () => {
    const m = message('assistant', [toolCall('call_1', 'read', { path: 'a.ts' })])
    const expected = 3 + 1 + 3 + gpt4o.count('call_1') + gpt4o.count('read') + gpt4o.count('{"path":"a.ts"}')
    expect(messageCost(m, gpt4o, { format: 'openai' })).toBe(expected)
  })

  it('charges Anthropic 3 per block, so merging turns costs nothing', () => {
    const a = message('user', 'first')
    const b = message('user', 'second')
    expect(messageCost(a, gpt4o, { format: 'anthropic' })).toBe(3 + gpt4o.count('first'))
    const { request } = toAnthropic([a, b])
    expect(request.messages).toHaveLength(1)
    expect(countAnthropic(request, gpt4o)).toBe(REQUEST_OVERHEAD + messageCost(a, gpt4o, { format: 'anthropic' }) + messageCost(b, gpt4o, { format: 'anthropic' }))
  })

  it('adds up exactly to the rendered request on real pi sessions, in both formats', () => {
    for (const file of ['large-session.jsonl', 'before-compaction.jsonl']) {
      const input = piMessages(file)
      const openai = repair(input, { format: 'openai' })
      expect(countOpenAI(toOpenAI(input).messages, gpt4o)).toBe(conversationCost(openai.messages, gpt4o, { format: 'openai' }))
      const target = { provider: 'anthropic', model: 'claude-opus-4-5' }
      const anthropic = repair(input, { format: 'anthropic', target })
      expect(countAnthropic(toAnthropic(input, { target }).request, gpt4o)).toBe(conversationCost(anthropic.messages, gpt4o, { format: 'anthropic' }))
    }
  })

  it('counts tool-result images, and the user message that carries them to OpenAI, with the tool message', () => {
    const png = pngBase64(1024, 1024)
    const input: ReadonlyArray<ChatMessage> = [
      message('user', 'shot'),
      message('assistant', [toolCall('c1', 'shot', {})]),
      message('tool', [toolResult('c1', 'shot', [image('image/png', png)])]),
    ]
    const rendered = toOpenAI(input, { imageDetail: 'high' }).messages
    expect(rendered).toHaveLength(4)
    const tool = messageCost(input[2]!, gpt4o, { format: 'openai', imageDetail: 'high' })
    expect(tool).toBe(3 + 1 + gpt4o.count('c1') + gpt4o.count('(see attached image)') + 3 + 1 + gpt4o.count('Attached image(s) from tool result:') + 765)
    expect(countOpenAI(rendered, gpt4o)).toBe(conversationCost(input, gpt4o, { format: 'openai', imageDetail: 'high' }))
  })

  it('does not undercount what repair drops: failed turns and empty text cost at least as much unrepaired', () => {
    const input = [message('user', [text('hi'), text('   ')]), message('assistant', 'partial', { stopReason: 'aborted' }), message('assistant', 'ok')]
    const repaired = repair(input, { format: 'openai' }).messages
    expect(conversationCost(input, gpt4o, { format: 'openai' })).toBeGreaterThan(conversationCost(repaired, gpt4o, { format: 'openai' }))
  })
})

describe('imageSize', () => {
  it('reads PNG, GIF, WebP and JPEG headers', () => {
    expect(imageSize(pngBase64(640, 480))).toEqual({ width: 640, height: 480 })
    expect(imageSize(gifBase64(33, 17))).toEqual({ width: 33, height: 17 })
    expect(imageSize(webpBase64(1920, 1080))).toEqual({ width: 1920, height: 1080 })
    expect(imageSize(jpegBase64(3000, 2000))).toEqual({ width: 3000, height: 2000 })
  })

  it('finds the JPEG frame header behind a 70 kB EXIF segment, and in line-wrapped base64', () => {
    expect(imageSize(jpegBase64(801, 601, 65000))).toEqual({ width: 801, height: 601 })
    const wrapped = jpegBase64(640, 480, 1000).replace(/(.{76})/g, '$1\n')
    expect(imageSize(wrapped)).toEqual({ width: 640, height: 480 })
  })

  it('returns undefined for data it cannot read', () => {
    expect(imageSize(Buffer.from('not an image at all, just text').toString('base64'))).toBeUndefined()
    expect(imageSize('')).toBeUndefined()
  })
})

describe('image tokens', () => {
  it('follows the OpenAI vision guide examples', () => {
    expect(openAIImageTokens({ width: 1024, height: 1024 }, 'high')).toBe(765)
    expect(openAIImageTokens({ width: 2048, height: 4096 }, 'high')).toBe(1105)
    expect(openAIImageTokens({ width: 4096, height: 8192 }, 'low')).toBe(85)
    expect(openAIImageTokens(undefined, 'auto')).toBe(OPENAI_IMAGE_MAX)
  })

  it('follows the Anthropic vision guide (w × h / 750, at most about 1600)', () => {
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334)
    expect(anthropicImageTokens({ width: 200, height: 200 })).toBe(54)
    expect(anthropicImageTokens({ width: 4000, height: 3000 })).toBe(ANTHROPIC_IMAGE_MAX)
    expect(anthropicImageTokens(undefined)).toBe(ANTHROPIC_IMAGE_MAX)
  })
})
