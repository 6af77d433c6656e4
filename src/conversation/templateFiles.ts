/**
 * Reading prompt templates from a folder of Markdown files (Node only; exported from
 * `gssc/node`). The shipped folder is found from this module's URL, so it works from `src/`
 * (tests) and from `dist/` (the published build), both one level below the root.
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { describeThrown, inputError, type InputError } from '../error.js'
import { TEMPLATE_FILES, type PromptTemplates } from './templates.js'

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
