/**
 * The prompt templates of the conversation builder. The package ships them as Markdown in
 * `templates/` at its root and embeds the same text (`./shippedTemplates.ts`), so the builder
 * needs no file system; read your own folder of templates with `loadTemplates` from
 * `gssc/node`.
 *
 * @module
 */
import { SHIPPED_TEMPLATES } from './shippedTemplates.js'

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
 * The templates shipped with the package.
 *
 * @example
 * defaultTemplates().toolPolicy // '### General Rules\n\n- Use only the tools this policy allows. …'
 * @category constructors
 * @since 0.1.0
 */
export const defaultTemplates = (): PromptTemplates => SHIPPED_TEMPLATES
