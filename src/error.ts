/**
 * Expected failures, as values. Every message names the input at fault and its value.
 *
 * @module
 */
import { clip } from './internal/preview.js'

/** A config field held an invalid value. */
export interface ConfigError {
  readonly _tag: 'ConfigError'
  readonly field: string
  readonly value: unknown
  readonly message: string
}

/** User input (a file, a line, an argument) could not be used. */
export interface InputError {
  readonly _tag: 'InputError'
  /** What was being read: a file path, `--flag`, or a field name. */
  readonly input: string
  /** 1-based line number, when the input is a text file. */
  readonly line?: number
  /** 1-based column (UTF-16 units) on that line, when known. */
  readonly column?: number
  readonly message: string
}

/** A gatherer failed (or timed out) and the build was asked to fail fast. */
export interface GatherError {
  readonly _tag: 'GatherError'
  readonly gatherer: string
  readonly message: string
}

/** A template referenced a placeholder that does not exist. */
export interface TemplateError {
  readonly _tag: 'TemplateError'
  readonly placeholder: string
  readonly message: string
}

/** Everything a gssc operation can fail with. */
export type GsscError = ConfigError | InputError | GatherError | TemplateError

/** @category constructors */
export const configError = (field: string, value: unknown, problem: string): ConfigError => ({
  _tag: 'ConfigError',
  field,
  value,
  message: `config.${field}: ${problem} (got ${show(value)})`,
})

/** @category constructors */
export const inputError = (input: string, problem: string, line?: number, column?: number): InputError => ({
  _tag: 'InputError',
  input,
  ...(line === undefined ? {} : { line }),
  ...(line === undefined || column === undefined ? {} : { column }),
  message: line === undefined ? `${input}: ${problem}` : column === undefined ? `${input}:${line}: ${problem}` : `${input}:${line}:${column}: ${problem}`,
})

/** @category constructors */
export const gatherError = (gatherer: string, problem: string): GatherError => ({
  _tag: 'GatherError',
  gatherer,
  message: `gatherer "${gatherer}" failed: ${problem}`,
})

/** @category constructors */
export const templateError = (placeholder: string, problem: string): TemplateError => ({
  _tag: 'TemplateError',
  placeholder,
  message: `template placeholder {{${placeholder}}}: ${problem}`,
})

/** Longest rendering of a value in a message: a huge bad value must not flood the terminal. */
const SHOW_MAX = 160

/**
 * Renders a value for an error message: strings quoted (JSON escapes make control characters
 * visible), the rest as JSON-ish, at most `SHOW_MAX` (160) characters.
 */
export const show = (value: unknown): string => clip(showFull(value), SHOW_MAX)

const showFull = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Describes an unknown thrown value (errors from user callbacks). */
export const describeThrown = (e: unknown): string =>
  e instanceof Error ? e.message || e.name : typeof e === 'string' ? e : show(e)
