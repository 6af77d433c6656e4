/**
 * The prompt templates of the conversation builder, read from Markdown files. The package
 * ships them in `templates/` at its root; this module finds that folder from its own URL, so
 * it works from `src/` (tests) and from `dist/` (the published build), both one level below
 * the root.
 *
 * Reading is synchronous and happens only when asked: pass `templates` to the builder to
 * read them once for many builds.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown, inputError, type InputError } from '../error.js'

/** The four templates. Surrounding whitespace is trimmed when they are read. */
export interface PromptTemplates {
  /** Base rules of `chat` and `agent` sessions. */
  readonly baseRulesChat: string
  /** Base rules of `run` sessions. */
  readonly baseRulesRun: string
  /** General tool rules, appended to the Tool Policy section. */
  readonly toolPolicy: string
  /** How to finish a step and name a transition, appended to the Run Directive section. */
  readonly runDirectiveProtocol: string
}

/** The file of each template. */
export const TEMPLATE_FILES: Readonly<Record<keyof PromptTemplates, string>> = {
  baseRulesChat: 'base-rules-chat.md',
  baseRulesRun: 'base-rules-run.md',
  toolPolicy: 'tool-policy.md',
  runDirectiveProtocol: 'run-directive-protocol.md',
}

/**
 * The package's `templates/` folder.
 *
 * @category utils
 * @since 0.1.0
 */
export const defaultTemplatesDir = (): string => fileURLToPath(new URL('../../templates/', import.meta.url))

/**
 * Reads the four templates from a folder; the error names the file that could not be read.
 *
 * @example
 * const templates = loadTemplates('./my-prompts') // Right({ baseRulesChat, … }) or Left(my-prompts/tool-policy.md: ENOENT …)
 * @category constructors
 * @since 0.1.0
 */
export const loadTemplates = (dir: string = defaultTemplatesDir()): E.Either<InputError, PromptTemplates> => {
  const out: Partial<Record<keyof PromptTemplates, string>> = {}
  for (const [key, file] of Object.entries(TEMPLATE_FILES) as Array<[keyof PromptTemplates, string]>) {
    const path = join(dir, file)
    try {
      out[key] = readFileSync(path, 'utf8').trim()
    } catch (e) {
      return E.left(inputError(path, `cannot read template: ${describeThrown(e)}`))
    }
  }
  return E.right(out as PromptTemplates)
}

/**
 * The templates shipped with the package. They are part of the package, so a missing file is
 * a broken installation, not bad input: this throws, naming the file.
 *
 * @category constructors
 * @since 0.1.0
 */
export const defaultTemplates = (): PromptTemplates =>
  E.getOrElse((e: InputError): PromptTemplates => {
    throw new Error(`gssc is installed without its prompt templates: ${e.message}`)
  })(loadTemplates())
