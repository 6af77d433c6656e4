/**
 * Test helpers: the real pi sessions of ../shared/fixtures/pi read as neutral messages
 * (only what the renderers need: message entries, in file order), a tokenizer, and small
 * real images built byte by byte.
 */
import { readFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { image, message, text, toolCall, toolResult, type ChatMessage, type Part } from '../../src/message.js'
import { createTokenizer, type Tokenizer } from '../../src/tokenize/tokenizer.js'
import { fixture } from '../shared.js'

export const FIXTURES = fixture('pi')

export const gpt4o: Tokenizer = E.getOrElseW((e: { message: string }) => {
  throw new Error(e.message)
})(createTokenizer('gpt-4o'))

type PiBlock = Record<string, unknown> & { type: string }

const piPart = (b: PiBlock): ReadonlyArray<Part> => {
  switch (b.type) {
    case 'text':
      return [{ _tag: 'Text', text: String(b.text) }]
    case 'image':
      return [{ _tag: 'Image', source: { _tag: 'Base64', mimeType: String(b.mimeType), data: String(b.data) } }]
    case 'thinking':
      return [{ _tag: 'Thinking', text: String(b.thinking), ...(typeof b.thinkingSignature === 'string' ? { signature: b.thinkingSignature } : {}) }]
    case 'toolCall':
      return [{ _tag: 'ToolCall', id: String(b.id), name: String(b.name), args: (b.arguments ?? {}) as Record<string, unknown> }]
    default:
      return []
  }
}

/** The message entries of a pi session file, as neutral messages. */
export const piMessages = (file: string): ReadonlyArray<ChatMessage> =>
  readFileSync(`${FIXTURES}/${file}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as { type: string; message?: Record<string, unknown> })
    .flatMap((e): ReadonlyArray<ChatMessage> => {
      const m = e.message
      if (e.type !== 'message' || m === undefined) return []
      const blocks = (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Array<PiBlock>)) ?? []
      const parts = blocks.flatMap(piPart)
      if (m.role === 'toolResult')
        return [
          {
            role: 'tool',
            parts: [
              {
                _tag: 'ToolResult',
                callId: String(m.toolCallId),
                name: String(m.toolName),
                content: parts.filter((p): p is Extract<Part, { _tag: 'Text' | 'Image' }> => p._tag === 'Text' || p._tag === 'Image'),
                isError: m.isError === true,
              },
            ],
          },
        ]
      if (m.role === 'user') return [{ role: 'user', parts }]
      if (m.role === 'assistant')
        return [
          {
            role: 'assistant',
            parts,
            origin: { provider: String(m.provider), api: String(m.api), model: String(m.model) },
            ...(typeof m.stopReason === 'string' ? { stopReason: m.stopReason } : {}),
          },
        ]
      return []
    })

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (buf: Buffer): number => {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer): Buffer => {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** A valid grey PNG of the given size, base64. */
export const pngBase64 = (width: number, height: number): string => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80)
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64')
}

/** A GIF header (logical screen descriptor) of the given size, base64. */
export const gifBase64 = (width: number, height: number): string => {
  const b = Buffer.alloc(13)
  b.write('GIF89a', 0, 'ascii')
  b.writeUInt16LE(width, 6)
  b.writeUInt16LE(height, 8)
  return Buffer.concat([b, Buffer.from([0x3b])]).toString('base64')
}

/** A JPEG start: SOI, an APP1 segment of `exifBytes` padding, then SOF0 with the size. */
export const jpegBase64 = (width: number, height: number, exifBytes = 0): string => {
  const app1 = Buffer.alloc(4 + exifBytes)
  app1.writeUInt16BE(0xffe1, 0)
  app1.writeUInt16BE(2 + exifBytes, 2)
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof, Buffer.from([0xff, 0xd9])]).toString('base64')
}

/** A WebP (VP8X) header of the given size, base64. */
export const webpBase64 = (width: number, height: number): string => {
  const b = Buffer.alloc(30)
  b.write('RIFF', 0, 'ascii')
  b.writeUInt32LE(22, 4)
  b.write('WEBPVP8X', 8, 'ascii')
  b.writeUInt32LE(10, 16)
  b.writeUIntLE(width - 1, 24, 3)
  b.writeUIntLE(height - 1, 27, 3)
  return b.toString('base64')
}

/** Deep-freezes a value so a test fails if the code under test writes to it. */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** The exchange of formats.md §5.4: a user text with an image, a tool call, its result, the answer. */
export const EXCHANGE: ReadonlyArray<ChatMessage> = deepFreeze([
  message('system', 'You are a build assistant.'),
  message('user', [text('Why does the build fail?'), image('image/png', 'iVBORw0KGgo=')]),
  message('assistant', [text('Reading the build script.'), toolCall('toolu_01', 'read', { path: 'build.sh' })]),
  message('tool', [toolResult('toolu_01', 'read', '#!/bin/sh\nnpm run compile\n')]),
  message('assistant', 'build.sh calls a missing npm script `compile`.'),
])
