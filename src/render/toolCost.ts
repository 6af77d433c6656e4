/**
 * Tokens that tool definitions add to a request: they are sent with every call, so a budget
 * that ignores them overflows.
 *
 * **OpenAI function tools** follow the OpenAI cookbook's rule ("How to count tokens with
 * tiktoken", counting tools): per function 7 tokens (10 for the cl100k models: gpt-4,
 * gpt-3.5) plus `name:description` (a trailing period dropped); when it has properties, 3,
 * and per property 3 plus `name:type:description`, an enum adding −3 and per value 3 plus
 * the value; 12 once after all functions. Exact as far as the rule is.
 *
 * **Anthropic tools** (and any other shape) are an estimate, flagged as such: Anthropic
 * publishes no rule, only that tool use adds a system prompt (346 tokens for recent models
 * with `auto` choice, its documentation's figure); gssc charges that plus the tools' JSON.
 *
 * Accepted shapes: Chat Completions `{ type: 'function', function: { name, description,
 * parameters } }`, Responses `{ type: 'function', name, description, parameters }`,
 * Anthropic `{ name, description, input_schema }`, and the AI SDK's `{ [name]: { description,
 * inputSchema } }` map (a JSON schema, or a `jsonSchema(...)` wrapper).
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { inputError, show, type InputError } from '../error.js'
import type { Counter } from './cost.js'

/** What tool definitions cost, and whether the figure is a rule's or an estimate. */
export interface ToolsCost {
  readonly tokens: number
  readonly exact: boolean
  readonly rule: 'openai-cookbook' | 'estimate'
}

/** One function tool, read from any accepted shape. */
interface Fn {
  readonly name: string
  readonly description: string
  readonly parameters: unknown
}

/** Anthropic's documented tool-use system prompt, `auto` / `none` tool choice (recent models). */
export const ANTHROPIC_TOOL_SYSTEM_PROMPT = 346

const isObj = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The function tools of `tools`, and whether all were OpenAI-shaped; an error names the tool it cannot read. */
const functionsOf = (tools: unknown, path: string): E.Either<InputError, { readonly fns: ReadonlyArray<Fn>; readonly openai: boolean }> => {
  if (isObj(tools)) {
    // the AI SDK's map of name → tool
    const fns = Object.entries(tools).map(([name, t]): Fn => {
      const schema = isObj(t) ? t['inputSchema'] ?? t['parameters'] : undefined
      return { name, description: isObj(t) ? str(t['description']) : '', parameters: isObj(schema) && 'jsonSchema' in schema ? schema['jsonSchema'] : schema }
    })
    return E.right({ fns, openai: false })
  }
  if (!Array.isArray(tools)) return E.left(inputError(path, `must be an array of tool definitions, or the AI SDK's map of tools (got ${show(tools)})`))
  const fns: Fn[] = []
  let openai = true
  for (let i = 0; i < tools.length; i++) {
    const t: unknown = tools[i]
    if (isObj(t) && t['type'] === 'function' && isObj(t['function']) && typeof t['function']['name'] === 'string')
      fns.push({ name: t['function']['name'], description: str(t['function']['description']), parameters: t['function']['parameters'] })
    else if (isObj(t) && t['type'] === 'function' && typeof t['name'] === 'string') fns.push({ name: t['name'], description: str(t['description']), parameters: t['parameters'] })
    else if (isObj(t) && typeof t['name'] === 'string') {
      openai = false
      fns.push({ name: t['name'], description: str(t['description']), parameters: t['input_schema'] ?? t['parameters'] })
    } else return E.left(inputError(`${path}[${i}]`, `must be a function tool with a name (got ${show(t)})`))
  }
  return E.right({ fns, openai })
}

const noDot = (s: string): string => (s.endsWith('.') ? s.slice(0, -1) : s)

/** The cookbook's rule for one list of functions. */
const cookbook = (fns: ReadonlyArray<Fn>, c: Counter, funcInit: number): number => {
  if (fns.length === 0) return 0
  let n = 0
  for (const f of fns) {
    n += funcInit + c.count(`${f.name}:${noDot(f.description)}`)
    const props = isObj(f.parameters) && isObj(f.parameters['properties']) ? Object.entries(f.parameters['properties']) : []
    if (props.length === 0) continue
    n += 3
    for (const [key, p] of props) {
      n += 3
      const prop = isObj(p) ? p : {}
      if (Array.isArray(prop['enum'])) {
        n -= 3
        for (const item of prop['enum']) n += 3 + c.count(String(item))
      }
      n += c.count(`${key}:${str(prop['type'])}:${noDot(str(prop['description']))}`)
    }
  }
  return n + 12
}

/**
 * The tokens of a request's tool definitions (see the module comment). `family` picks the
 * cookbook's constants: `o200k` (gpt-4o and later) or `cl100k` (gpt-4, gpt-3.5).
 *
 * @example
 * toolsCost([{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city.', parameters } }], tokenizer)
 * // Right({ tokens: 27, exact: true, rule: 'openai-cookbook' })
 * @category utils
 * @since 0.2.0
 */
export const toolsCost = (tools: unknown, counter: Counter, options: { readonly family?: 'o200k' | 'cl100k'; readonly path?: string } = {}): E.Either<InputError, ToolsCost> =>
  E.map(({ fns, openai }: { readonly fns: ReadonlyArray<Fn>; readonly openai: boolean }): ToolsCost =>
    fns.length === 0
      ? { tokens: 0, exact: true, rule: openai ? 'openai-cookbook' : 'estimate' }
      : openai
        ? { tokens: cookbook(fns, counter, options.family === 'cl100k' ? 10 : 7), exact: true, rule: 'openai-cookbook' }
        : { tokens: ANTHROPIC_TOOL_SYSTEM_PROMPT + counter.count(JSON.stringify(fns.map((f) => ({ name: f.name, description: f.description, input_schema: f.parameters ?? {} })))), exact: false, rule: 'estimate' },
  )(functionsOf(tools, options.path ?? 'tools'))
