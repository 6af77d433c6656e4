/**
 * Calibrated counts for models whose tokenizer is not public (Claude, Gemini): learn, from
 * the usage a provider reported for requests gssc built, how far gssc's approximate count is
 * from the true one, and count with that correction plus a safety margin, so budgets stay
 * under the true limit.
 *
 * The model is `true ≈ slope × approximate + overhead`: `slope` is how many of the model's
 * tokens one approximate token is worth (Claude spends about 1.1–1.5 tokens per cl100k_base
 * token on code and prose), `overhead` is what every request carries that gssc did not count
 * (a provider's hidden framing, or a system prompt and tool definitions added outside gssc).
 * The slope is fitted robustly (Theil–Sen: the median of pairwise slopes), because
 * consecutive requests of one conversation are not independent and a few odd ones must not
 * drag the fit. The error bound is the largest relative under-count of `slope × approximate`
 * over the samples of at least `minTokens` (the requests whose budgets matter); the margin
 * adds it, and a little more, to every count. The overhead is then the least constant that
 * leaves no sample, small ones included, under-counted.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { configError, type ConfigError } from '../error.js'
import type { Tokenizer } from './tokenizer.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** One request: gssc's approximate count of it, and the input tokens the provider reported. */
export interface UsageSample {
  /** gssc's count of the request it built (the approximate tokenizer's). */
  readonly estimated: number
  /**
   * The provider's count of the same request's input: Anthropic `usage.input_tokens +
   * cache_read_input_tokens + cache_creation_input_tokens`; Gemini `usageMetadata.promptTokenCount`.
   */
  readonly actual: number
}

/** What `calibrate` learnt. */
export interface Calibration {
  readonly samples: number
  /** Model tokens per approximate token. */
  readonly slope: number
  /** Tokens every request carries that the approximate count did not see. */
  readonly overhead: number
  /** The largest relative under-count of `slope × estimated` over the samples of at least `minTokens` (0.04 = 4%). */
  readonly errorBound: number
  /** The mean absolute relative error of `slope × estimated + overhead` over the samples. */
  readonly meanError: number
  /** The mean relative over-count of the calibrated request count: what the safety costs. */
  readonly meanOvercount: number
  /** The margin every calibrated count carries: `errorBound` plus the extra asked for. */
  readonly margin: number
}

/** Options of {@link calibrate}. */
export interface CalibrateOptions {
  /** Added to the error bound, as a share (default 0.01: one percent). */
  readonly extraMargin?: number
  /** Samples gssc counted fewer tokens in shape the overhead only, not the error bound. Default 1,000. */
  readonly minTokens?: number
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * Learns a correction from recorded usage. Needs at least two samples with different
 * estimates; every figure must be a positive finite number.
 *
 * @example
 * const c = calibrate([{ estimated: 1000, actual: 1250 }, { estimated: 4000, actual: 4900 }])
 * // Right({ slope: 1.217, overhead: …, errorBound: …, margin: … })
 * @category constructors
 * @since 0.1.0
 */
export const calibrate = (samples: ReadonlyArray<UsageSample>, options: CalibrateOptions = {}): E.Either<ConfigError, Calibration> => {
  const bad = samples.findIndex((s) => !(Number.isFinite(s.estimated) && Number.isFinite(s.actual) && s.estimated > 0 && s.actual > 0))
  if (bad >= 0) return E.left(configError(`samples[${bad}]`, samples[bad], 'estimated and actual must be positive numbers'))
  const extra = options.extraMargin ?? 0.01
  if (!(extra >= 0 && Number.isFinite(extra))) return E.left(configError('extraMargin', extra, 'must be a non-negative number'))
  const slope = median(pairwiseSlopes(samples))
  if (slope === undefined || !(slope > 0)) return E.left(configError('samples', samples.length, 'need at least two samples with different estimates'))
  const minTokens = options.minTokens ?? 1000
  const large = samples.filter((s) => s.estimated >= minTokens)
  const errorBound = Math.max(0, ...large.map((s) => (s.actual - slope * s.estimated) / (slope * s.estimated)))
  const margin = errorBound + extra
  const overhead = Math.max(0, ...samples.map((s) => Math.ceil(s.actual - slope * s.estimated * (1 + margin))))
  const meanError = samples.reduce((sum, s) => sum + Math.abs(s.actual - (slope * s.estimated + overhead)) / s.actual, 0) / samples.length
  const calibration = { samples: samples.length, slope, overhead, errorBound, meanError, meanOvercount: 0, margin }
  const meanOvercount = samples.reduce((sum, s) => sum + calibratedRequest(calibration, s.estimated) / s.actual - 1, 0) / samples.length
  return E.right({ ...calibration, meanOvercount })
}

/**
 * The calibrated count of a whole request gssc counted `estimated`: what the provider should
 * report, at most, if the request is like the samples.
 *
 * @category utils
 * @since 0.1.0
 */
export const calibratedRequest = (c: Calibration, estimated: number): number => Math.ceil(c.slope * estimated * (1 + c.margin) + c.overhead)

/**
 * A tokenizer counting as calibrated: every text's approximate count times `slope × (1 +
 * margin)`, rounded up. The per-request `overhead` is not in any text's count: reserve it
 * (`config.reserveTokens`, or subtract it from `maxTokens`). Lower bound and prefix end are
 * scaled alike, so the three stay consistent: a prefix cut to `n` calibrated tokens counts
 * at most `n`.
 *
 * @example
 * const claude = calibratedTokenizer(calibration)(createTokenizer('claude-sonnet-4-5'))
 * @category constructors
 * @since 0.1.0
 */
export const calibratedTokenizer =
  (c: Calibration) =>
  (base: Tokenizer): Tokenizer => {
    const k = c.slope * (1 + c.margin)
    return {
      name: `${base.name}+calibrated`,
      exact: false,
      ...(base.model === undefined ? {} : { model: base.model }),
      count: (text) => Math.ceil(base.count(text) * k),
      lowerBound: (text) => Math.floor(base.lowerBound(text) * k),
      prefixEnd: (text, maxTokens) => base.prefixEnd(text, Math.floor(maxTokens / k)),
    }
  }

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/** At most this many samples enter the pairwise slopes (evenly spaced), so the fit stays O(1). */
const MAX_PAIRED = 300

/** Slopes between every two samples with different estimates (Theil–Sen). */
const pairwiseSlopes = (samples: ReadonlyArray<UsageSample>): ReadonlyArray<number> => {
  const step = Math.max(1, samples.length / MAX_PAIRED)
  const picked = Array.from({ length: Math.min(samples.length, MAX_PAIRED) }, (_, i) => samples[Math.floor(i * step)]!)
  const slopes: number[] = []
  for (let i = 0; i < picked.length; i++)
    for (let j = i + 1; j < picked.length; j++) {
      const dx = picked[j]!.estimated - picked[i]!.estimated
      if (dx !== 0) slopes.push((picked[j]!.actual - picked[i]!.actual) / dx)
    }
  return slopes
}

const median = (xs: ReadonlyArray<number>): number | undefined => {
  if (xs.length === 0) return undefined
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
