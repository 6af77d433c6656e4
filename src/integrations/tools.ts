/**
 * The tools an SDK holds (the AI SDK's map of tools, LangChain tools), as the function
 * definitions the provider is sent, so that `fitMessages` counts them by that provider's
 * rule (`toolsCost`: OpenAI function tools by the cookbook's rule, Anthropic tools estimated
 * and flagged). The SDKs send tools with every step, so a step's budget must pay for them.
 *
 * A tool's input schema is read the way the SDKs read it: a JSON Schema as it is; the AI
 * SDK's `jsonSchema()` / `zodSchema()` wrapper by its `jsonSchema` (which may be a promise);
 * a Standard JSON Schema (zod 4 and others) by `~standard.jsonSchema.input` with the
 * draft-07 target. A schema none of these reads (a zod 3 schema) is an error naming the
 * tool, never a guess; so is a schema whose getter throws.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { fail, objectAt, type Dec, type Obj } from '../adapters/decode.js'
import { describeThrown, inputError, show, type InputError } from '../error.js'
import { isRecord } from '../messageProblem.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * Whose wire shape tool definitions take, and so whose counting rule applies.
 *
 * @category model
 * @since 0.2.0
 */
export type ToolFormat = 'openai' | 'anthropic'

/** One tool as read, before its schema is resolved (the AI SDK's may be a promise). */
interface Pending {
  readonly name: string
  readonly description: string
  readonly schema: unknown
  /** Where the schema is, for its errors. */
  readonly path: string
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * The format of a model's tools: Anthropic's for a Claude model (`claude-…`, Bedrock's
 * `anthropic.claude-…`, a provider id such as `anthropic.messages`), OpenAI's otherwise.
 *
 * @example
 * toolFormatOf('claude-sonnet-4-5') // 'anthropic'
 * @category utils
 * @since 0.2.0
 */
export const toolFormatOf = (model: string | undefined): ToolFormat => (model !== undefined && /claude|anthropic/i.test(model) ? 'anthropic' : 'openai')

/** The JSON Schema of an input schema (see the module comment); `undefined` for none. */
const jsonSchemaOf = (schema: unknown, path: string): TE.TaskEither<InputError, unknown> => {
  if (schema === undefined || schema === null) return TE.right(undefined)
  if (!isRecord(schema)) return TE.left(inputError(path, `must be a JSON Schema or a schema object (got ${show(schema)})`))
  const read = (get: () => unknown): TE.TaskEither<InputError, unknown> => TE.tryCatch(async () => await get(), (e) => inputError(path, `its JSON Schema could not be read: ${describeThrown(e)}`))
  if ('jsonSchema' in schema) return read(() => schema['jsonSchema'])
  const standard = schema['~standard']
  if (isRecord(standard)) {
    const js = standard['jsonSchema']
    if (isRecord(js) && typeof js['input'] === 'function') return read(() => (js['input'] as (o: object) => unknown)({ target: 'draft-07' }))
    return TE.left(inputError(path, `a ${str(standard['vendor']) || 'Standard Schema'} schema that cannot give its JSON Schema (zod 3?): pass a JSON Schema, or wrap it with jsonSchema() / zodSchema() from 'ai'`))
  }
  if ('_def' in schema) return TE.left(inputError(path, "a zod 3 schema cannot give its JSON Schema here: pass a JSON Schema, use zod 4, or wrap it with zodSchema() from 'ai'"))
  return TE.right(schema)
}

/** A tool in the format's wire shape, as `toolsCost` reads it. */
const wire = (format: ToolFormat, { name, description }: Pending, parameters: unknown): object =>
  format === 'openai'
    ? { type: 'function', function: { name, description, ...(parameters === undefined ? {} : { parameters }) } }
    : { name, description, input_schema: parameters ?? { type: 'object' } }

/** Every tool read, then every schema resolved (in parallel: each may be a promise). */
const definitions = (read: Dec<ReadonlyArray<Pending>>, format: ToolFormat): TE.TaskEither<InputError, ReadonlyArray<object>> =>
  pipe(
    TE.fromEither(read),
    TE.chain(TE.traverseArray((p) => TE.map((parameters) => wire(format, p, parameters))(jsonSchemaOf(p.schema, p.path)))),
  )

/** Reads each entry with `f`, stopping at the first error. */
const each = <T>(entries: ReadonlyArray<T>, f: (entry: T) => Dec<Pending>): Dec<ReadonlyArray<Pending>> => E.traverseArray(f)(entries)

// -------------------------------------------------------------------------------------
// readers
// -------------------------------------------------------------------------------------

/**
 * The AI SDK's map of tools (`{ [name]: tool({ description, inputSchema, execute }) }`) as
 * function definitions of `format`. A provider-defined tool (`type: 'provider'`) counts by
 * its name and arguments.
 *
 * @example
 * await aiSdkToolDefinitions({ weather: tool({ description: 'Weather of a city.', inputSchema: z.object({ city: z.string() }) }) }, 'openai')()
 * // Right([{ type: 'function', function: { name: 'weather', description: 'Weather of a city.', parameters: { type: 'object', … } } }])
 * @category readers
 * @since 0.2.0
 */
export const aiSdkToolDefinitions = (tools: unknown, format: ToolFormat, path = 'tools'): TE.TaskEither<InputError, ReadonlyArray<object>> =>
  definitions(
    pipe(
      objectAt(tools, path, "the AI SDK's map of tools, name to tool"),
      E.chain((map) =>
        each(Object.entries(map), ([name, t]) => {
          const at = `${path}.${name}`
          if (!isRecord(t)) return fail(at, `must be a tool (got ${show(t)})`)
          if (t['type'] === 'provider' || t['type'] === 'provider-defined') return E.right({ name, description: '', schema: t['args'], path: `${at}.args` })
          return E.right({ name, description: str(t['description']), schema: t['inputSchema'] ?? t['parameters'], path: `${at}.inputSchema` })
        }),
      ),
    ),
    format,
  )

/**
 * LangChain tools (a `StructuredTool` and what `tool()` makes: `name`, `description`,
 * `schema`; a tool already in OpenAI's shape; a provider's built-in tool, counted by its
 * name or type) as function definitions of `format`.
 *
 * @example
 * await langChainToolDefinitions([tool(fn, { name: 'weather', description: 'Weather of a city.', schema })], 'openai')()
 * @category readers
 * @since 0.2.0
 */
export const langChainToolDefinitions = (tools: ReadonlyArray<unknown>, format: ToolFormat, path = 'tools'): TE.TaskEither<InputError, ReadonlyArray<object>> =>
  definitions(
    each(
      tools.map((t, i) => [t, `${path}[${i}]`] as const),
      ([t, at]): Dec<Pending> => {
        if (!isRecord(t)) return fail(at, `must be a tool (got ${show(t)})`)
        const fn: Obj | undefined = isRecord(t['function']) ? t['function'] : undefined
        if (t['type'] === 'function' && fn !== undefined && typeof fn['name'] === 'string')
          return E.right({ name: fn['name'], description: str(fn['description']), schema: fn['parameters'], path: `${at}.function.parameters` })
        if (typeof t['name'] === 'string' && 'schema' in t) return E.right({ name: t['name'], description: str(t['description']), schema: t['schema'], path: `${at}.schema` })
        const name = str(t['name']) || str(t['type'])
        if (name === '') return fail(at, `must be a tool with a name (got ${show(t)})`)
        return E.right({ name, description: str(t['description']), schema: undefined, path: at })
      },
    ),
    format,
  )
