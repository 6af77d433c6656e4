import { jsonSchema, tool } from 'ai'
import * as E from 'fp-ts/lib/Either.js'
import { tool as lcTool } from 'langchain'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { aiSdkToolDefinitions, langChainToolDefinitions, toolFormatOf } from '../../src/integrations/tools.js'

const schema = { type: 'object' as const, properties: { city: { type: 'string' as const } }, required: ['city'] }

describe('tool definitions read from the SDKs’ tools', () => {
  it('reads an AI SDK map of tools (jsonSchema(), zod 4) in OpenAI’s and Anthropic’s wire shapes', async () => {
    const tools = { weather: tool({ description: 'Weather of a city.', inputSchema: jsonSchema(schema) }) }
    expect(await aiSdkToolDefinitions(tools, 'openai')()).toEqual(E.right([{ type: 'function', function: { name: 'weather', description: 'Weather of a city.', parameters: schema } }]))
    expect(await aiSdkToolDefinitions(tools, 'anthropic')()).toEqual(E.right([{ name: 'weather', description: 'Weather of a city.', input_schema: schema }]))
    const zod = await aiSdkToolDefinitions({ weather: tool({ description: 'Weather of a city.', inputSchema: z.object({ city: z.string() }) }) }, 'openai')()
    expect(zod).toEqual(E.right([{ type: 'function', function: expect.objectContaining({ parameters: expect.objectContaining({ type: 'object', required: ['city'] }) }) }]))
  })

  it('reads LangChain tools, tools in OpenAI’s shape and built-in tools', async () => {
    const weather = lcTool(() => 'sunny', { name: 'weather', description: 'Weather of a city.', schema: z.object({ city: z.string() }) })
    const r = await langChainToolDefinitions([weather, { type: 'function', function: { name: 'f', description: 'F.', parameters: schema } }, { type: 'web_search' }], 'openai')()
    expect(E.map((ds: ReadonlyArray<object>) => ds.map((d) => (d as { function: { name: string } }).function.name))(r)).toEqual(E.right(['weather', 'f', 'web_search']))
  })

  it('answers what it cannot read with a Left naming the tool, never a throw', async () => {
    const left = async (te: () => Promise<E.Either<{ input: string; message: string }, unknown>>) => {
      const r = await te()
      return E.isLeft(r) ? r.left.message : 'Right'
    }
    expect(await left(aiSdkToolDefinitions([1], 'openai'))).toMatch(/^tools: must be the AI SDK's map of tools/)
    expect(await left(aiSdkToolDefinitions({ t: 'nope' }, 'openai'))).toMatch(/^tools\.t: must be a tool/)
    expect(await left(aiSdkToolDefinitions({ t: { inputSchema: { _def: {} } } }, 'openai'))).toMatch(/^tools\.t\.inputSchema: a zod 3 schema/)
    const throwing = { get jsonSchema(): never { throw new Error('boom') } }
    expect(await left(aiSdkToolDefinitions({ t: { inputSchema: throwing } }, 'openai'))).toBe('tools.t.inputSchema: its JSON Schema could not be read: boom')
    expect(await left(aiSdkToolDefinitions({ t: { inputSchema: { jsonSchema: Promise.reject(new Error('late')) } } }, 'openai'))).toMatch(/could not be read: late/)
    expect(await left(langChainToolDefinitions([{}], 'openai', 'request.tools'))).toMatch(/^request\.tools\[0\]: must be a tool with a name/)
  })

  it('picks Anthropic’s rule for a Claude model, by any of its names', () => {
    expect(['claude-sonnet-4-5', 'anthropic.claude-3-haiku-20240307-v1:0', 'anthropic.messages'].map(toolFormatOf)).toEqual(['anthropic', 'anthropic', 'anthropic'])
    expect([undefined, 'gpt-4o', 'llama-3'].map(toolFormatOf)).toEqual(['openai', 'openai', 'openai'])
  })
})
