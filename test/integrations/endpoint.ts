/**
 * A local stand-in for the OpenAI Chat Completions and Anthropic Messages HTTP APIs, for the
 * tests of the SDK examples: a node:http server on 127.0.0.1 (a free port) that keeps every
 * request body the real SDK sent it, and answers as a model in the examples' tool loop
 * would: a `read_file` call for each file in turn, then the answer.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ANSWER, FILES } from '../../examples/tool-loop.js'

/** A request the endpoint received. */
export interface Received {
  readonly path: string
  readonly body: Readonly<Record<string, unknown>>
}

/** A running endpoint: its URL, what it received so far, and how to stop it. */
export interface LocalEndpoint {
  readonly url: string
  readonly requests: ReadonlyArray<Received>
  readonly close: () => Promise<void>
}

/** OpenAI's answer to its n-th request: the next file's call, or the answer. */
const openai = (n: number): object => {
  const file = FILES[n]
  const message =
    file === undefined
      ? { role: 'assistant', content: ANSWER, refusal: null }
      : { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ name: file }) } }] }
  const choice = { index: 0, message, finish_reason: file === undefined ? 'stop' : 'tool_calls', logprobs: null }
  return { id: `chatcmpl-${n}`, object: 'chat.completion', created: 1767268800, model: 'gpt-4o', choices: [choice], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
}

/** Anthropic's answer to its n-th request. */
const anthropic = (n: number): object => {
  const file = FILES[n]
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: file === undefined ? [{ type: 'text', text: ANSWER }] : [{ type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { name: file } }],
    stop_reason: file === undefined ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  }
}

const ANSWERS: Readonly<Record<string, (n: number) => object>> = { '/v1/chat/completions': openai, '/v1/messages': anthropic }

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Starts the endpoint; each API answers its own requests in turn. */
export const startEndpoint = async (): Promise<LocalEndpoint> => {
  const requests: Received[] = []
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const path = req.url ?? ''
      const answer = ANSWERS[path]
      if (req.method !== 'POST' || answer === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no ${req.method} ${path} here` } }))
        return
      }
      const n = requests.filter((r) => r.path === path).length
      requests.push({ path, body: JSON.parse(text) as Record<string, unknown> })
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(n)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e === undefined ? resolve() : reject(e)))),
  }
}
