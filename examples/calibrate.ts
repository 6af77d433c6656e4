/**
 * Calibrated counts for Claude: learn from the usage Anthropic reported for requests gssc
 * counted, then count with the correction and a safety margin. Run: npx tsx examples/calibrate.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { createTokenizer, loadEncoding } from 'gssc'
import { calibrate, calibratedRequest, calibratedTokenizer, type UsageSample } from 'gssc/tokenize'
import { isMain } from './load.js'

export const main = async (): Promise<string> => {
  await loadEncoding('cl100k_base')
  // after each call: { estimated: result.tokenCount, actual: usage.input_tokens
  //   + usage.cache_read_input_tokens + usage.cache_creation_input_tokens }
  // six real requests of a pi session with claude-opus-4-5 (test/fixtures/usage/pi-anthropic.json)
  const samples: ReadonlyArray<UsageSample> = [
    { estimated: 160, actual: 2775 },
    { estimated: 74475, actual: 95817 },
    { estimated: 104156, actual: 135053 },
    { estimated: 119985, actual: 156137 },
    { estimated: 59608, actual: 79782 },
    { estimated: 117646, actual: 150259 },
  ]
  const calibration = calibrate(samples)
  if (E.isLeft(calibration)) throw new Error(calibration.left.message)
  const c = calibration.right
  const claude = E.map(calibratedTokenizer(c))(createTokenizer('claude-sonnet-4-5'))
  if (E.isLeft(claude)) throw new Error(claude.left.message)
  const text = 'The compile script was renamed to build in v2; run npm run build.'
  return [
    `slope ${c.slope.toFixed(3)}, overhead ${c.overhead}, error bound ${(c.errorBound * 100).toFixed(1)}%, margin ${(c.margin * 100).toFixed(1)}%`,
    `a 40,000-token request (cl100k) is at most ${calibratedRequest(c, 40_000)} Claude tokens`,
    `"${text}": ${claude.right.count(text)} calibrated tokens (${claude.right.name})`,
  ].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
