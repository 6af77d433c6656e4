/**
 * Which encoding a model name stands for: the name rules of `createTokenizer`, apart from the
 * tokenizers themselves, so that checking a name (the CLI's `--model`) loads no tokenizer.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'
import type { EncodingName } from './bpe.js'

/** What a model name resolves to (see `createTokenizer`'s table). */
export interface ModelEncoding {
  readonly encoding: EncodingName | 'estimate'
  /** The model as given, when it named one (not for an encoding's own name). */
  readonly model?: string
  /** False for the estimate, and for Claude models (cl100k_base is an approximation there). */
  readonly exact: boolean
}

const O200K = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d+(-|$)|gpt-oss)/
const CL100K = /^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002|davinci-002|babbage-002)/
const CLAUDE = /^claude/

/**
 * The model a name stands for, as OpenAI's own id: lower case, without a provider prefix
 * (`openai/gpt-4o`, `openrouter/openai/gpt-4o`, `azure:gpt-4o`, Bedrock's
 * `us.anthropic.claude-…`) and without a fine-tune's suffix (`ft:gpt-4o-mini:org::id` is
 * `gpt-4o-mini`).
 *
 * @example
 * baseModel('openai/gpt-4.1-mini')             // 'gpt-4.1-mini'
 * baseModel('ft:gpt-4o-mini-2024-07-18:acme::x') // 'gpt-4o-mini-2024-07-18'
 * @category utils
 * @since 0.1.0
 */
export const baseModel = (model: string): string => {
  let m = model.trim().toLowerCase()
  if (m.startsWith('ft:')) m = m.slice(3).split(':')[0] ?? ''
  m = m.slice(m.lastIndexOf('/') + 1)
  if (!m.startsWith('ft:') && /^[a-z0-9-]+:/.test(m) && !/^[a-z0-9-]+:\d/.test(m)) m = m.slice(m.indexOf(':') + 1)
  if (m.startsWith('ft:')) m = m.slice(3).split(':')[0] ?? ''
  const bedrock = /^(?:[a-z]{2}\.)?anthropic\.(claude.*)$/.exec(m)
  return bedrock === null ? m : bedrock[1]!
}

/** How to choose when a name is not known: what the error says. */
const HOW_TO_CHOOSE =
  'name an OpenAI model (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4-mini, gpt-4, gpt-3.5-turbo; a provider prefix such as openai/ or a fine-tune id ft:gpt-4o-mini:… is fine) or a Claude model, or choose the encoding yourself: o200k_base (GPT-4o and later), cl100k_base (GPT-4, GPT-3.5; also an approximation for Claude), or estimate (about 4 characters per token, for any other model); Llama 3, Qwen 3, DeepSeek V3 and Gemma 3 count exactly with await openWeightTokenizer(model)() from gssc/tokenize'

/**
 * The encoding a model name or encoding name stands for, or the error that says how to choose
 * (the rules of `createTokenizer`, which builds the tokenizer).
 *
 * @example
 * modelEncoding('openai/gpt-5') // Right({ encoding: 'o200k_base', model: 'openai/gpt-5', exact: true })
 * @category utils
 * @since 0.2.0
 */
export const modelEncoding = (model: string): E.Either<ConfigError, ModelEncoding> => {
  if (typeof model !== 'string') return E.left(configError('model', model, `must be a model name; ${HOW_TO_CHOOSE}`))
  const m = baseModel(model)
  if (m === 'estimate') return E.right({ encoding: 'estimate', exact: false })
  if (m === 'o200k_base' || m === 'cl100k_base') return E.right({ encoding: m, exact: true })
  if (O200K.test(m)) return E.right({ encoding: 'o200k_base', model, exact: true })
  if (CL100K.test(m)) return E.right({ encoding: 'cl100k_base', model, exact: true })
  if (CLAUDE.test(m)) return E.right({ encoding: 'cl100k_base', model, exact: false })
  return E.left({ _tag: 'ConfigError', field: 'model', value: model, message: `config.model: unknown model ${JSON.stringify(model)}; ${HOW_TO_CHOOSE}` })
}
