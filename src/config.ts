/**
 * Build configuration, validated once at the edge. Invalid values are rejected with an error
 * that names the field and the value; nothing downstream re-checks them.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, show, type ConfigError } from './error.js'
import { typesProblem, type TypesProblem, type TypeSettingsByType } from './select/shares.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Output language of the default structurer's labels. */
export type Locale = 'en' | 'zh'

/** Build settings. The defaults are the seed's. */
export interface Config {
  /** Total token budget (the model's window you want to use). Default 8000. */
  readonly maxTokens: number
  /** Share of `maxTokens` kept free for the model's answer, in [0, 1). Default 0.15. */
  readonly reserveRatio: number
  /**
   * Gated packets scoring below this relevance are dropped. Default 0.3. It applies to
   * packets judged by keyword overlap, and to your own packets' `relevance`; not to P0, the
   * task, history, or a retriever's hits (`rag`, `memory`: their scores are ranks on the
   * retriever's own scale; give those gatherers a `minScore` instead).
   */
  readonly minRelevance: number
  /** Weight of relevance in the composite score. Default 0.7. */
  readonly relevanceWeight: number
  /** Weight of recency in the composite score. Default 0.3. */
  readonly recencyWeight: number
  /** Recency decay constant τ in seconds: recency = e^(−Δt/τ). Default 3600. */
  readonly recencyTau: number
  /** How many of the latest history messages the history gatherer offers. Default 10. */
  readonly maxHistoryMessages: number
  /**
   * The per-item cap, as a share of the available budget: a history item (a tool result, a
   * pasted file) longer than this is cut knowing what it is (JSON stays valid, a log keeps its
   * errors, code its skeleton, Markdown its headings; other text keeps its head and tail)
   * before it is counted, so one oversized item cannot push out the whole history. In (0, 1]; 1 turns the cap off. Default 0.25.
   */
  readonly maxItemShare: number
  /** Use the truncating compressor (true) or the no-op one (false). Default true. */
  readonly enableCompression: boolean
  /** Re-rank gated packets for diversity with MMR. Default false. */
  readonly enableMMR: boolean
  /** MMR trade-off λ: 1 = pure relevance, 0 = pure diversity. Default 0.7. */
  readonly mmrLambda: number
  /** Labels of the default structurer. Default 'en'. */
  readonly locale: Locale
  /**
   * Per-type settings: budget shares (`floor`, `cap`, fractions of the room the selector
   * fills) and scoring (`recencyTau`, `relevanceWeight`, `recencyWeight`), by packet type.
   * Default none. See `docs/budget-shares.md`.
   *
   * @example
   * { types: { history: { floor: 0.3 }, evidence: { cap: 0.4 } } }
   */
  readonly types: TypeSettingsByType
}

/** The seed's defaults. */
export const DEFAULT_CONFIG: Config = {
  maxTokens: 8000,
  reserveRatio: 0.15,
  minRelevance: 0.3,
  relevanceWeight: 0.7,
  recencyWeight: 0.3,
  recencyTau: 3600,
  maxHistoryMessages: 10,
  maxItemShare: 0.25,
  enableCompression: true,
  enableMMR: false,
  mmrLambda: 0.7,
  locale: 'en',
  types: {},
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** What is wrong with a value: a problem, or (for a nested field) where and what. */
type Check = (value: unknown) => string | TypesProblem | undefined

const finite: Check = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a finite number')
const within =
  (lo: number, hi: number, hiOpen = false): Check =>
  (v) =>
    finite(v) ??
    ((v as number) < lo || (hiOpen ? (v as number) >= hi : (v as number) > hi)
      ? `must be in [${lo}, ${hi}${hiOpen ? ')' : ']'}`
      : undefined)
const positiveInt: Check = (v) =>
  finite(v) ?? (Number.isSafeInteger(v) && (v as number) > 0 ? undefined : 'must be a positive integer up to 2^53 - 1')
const nonNegative: Check = (v) => finite(v) ?? ((v as number) < 0 ? 'must not be negative' : undefined)
const positive: Check = (v) => finite(v) ?? ((v as number) <= 0 ? 'must be greater than 0' : undefined)
const countOrInfinity: Check = (v) =>
  v === Number.POSITIVE_INFINITY
    ? undefined
    : finite(v) ?? (Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'must be a non-negative integer up to 2^53 - 1, or Infinity')
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false')
const locale: Check = (v) => (v === 'en' || v === 'zh' ? undefined : 'must be "en" or "zh"')

const CHECKS: Readonly<Record<keyof Config, Check>> = {
  maxTokens: positiveInt,
  reserveRatio: within(0, 1, true),
  minRelevance: within(0, 1),
  relevanceWeight: nonNegative,
  recencyWeight: nonNegative,
  recencyTau: positive,
  maxHistoryMessages: countOrInfinity,
  maxItemShare: (v) => finite(v) ?? ((v as number) <= 0 || (v as number) > 1 ? 'must be in (0, 1]' : undefined),
  enableCompression: bool,
  enableMMR: bool,
  mmrLambda: within(0, 1),
  locale,
  types: typesProblem,
}

/**
 * Validates a partial config over the defaults. Unknown keys are rejected too: a typo such
 * as `maxToken` must not silently fall back to the default.
 *
 * @example
 * makeConfig({ maxTokens: 16000 }) // Right({ ...DEFAULT_CONFIG, maxTokens: 16000 })
 * makeConfig({ reserveRatio: 1 })  // Left(config.reserveRatio: must be in [0, 1) (got 1))
 * @category constructors
 * @since 0.1.0
 */
export const makeConfig = (overrides: Partial<Config> = {}): E.Either<ConfigError, Config> => {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
    return E.left({ _tag: 'ConfigError', field: '', value: overrides, message: `config: must be an object of settings (got ${show(overrides)})` })
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    const check = (CHECKS as Readonly<Record<string, Check>>)[key]
    if (check === undefined) return E.left(configError(key, value, `unknown field; known fields: ${Object.keys(CHECKS).join(', ')}`))
    const problem = check(value)
    if (typeof problem === 'string') return E.left(configError(key, value, problem))
    if (problem !== undefined) return E.left(configError(problem.field, problem.value, problem.problem))
  }
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
  const config: Config = { ...DEFAULT_CONFIG, ...defined }
  if (config.relevanceWeight + config.recencyWeight === 0)
    return E.left(configError('relevanceWeight', config.relevanceWeight, 'relevanceWeight and recencyWeight cannot both be 0'))
  if (availableTokens(config) < 1)
    return E.left(configError('maxTokens', config.maxTokens, `leaves no tokens after reserveRatio ${config.reserveRatio}`))
  return E.right(config)
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * Tokens the context may use: `floor(maxTokens × (1 − reserveRatio))`; 8000 × 0.85 = 6800.
 *
 * @category utils
 * @since 0.1.0
 */
export const availableTokens = (config: Pick<Config, 'maxTokens' | 'reserveRatio'>): number =>
  Math.floor(config.maxTokens * (1 - config.reserveRatio))
