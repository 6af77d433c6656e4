/**
 * What the validators report: a provider rule a request breaks, where, and why.
 *
 * @module
 */

/** The provider rules the validators check. */
export type ViolationRule =
  | 'NoMessages'
  | 'FirstNotUser'
  | 'RolesNotAlternating'
  | 'UnknownRole'
  | 'EmptyContent'
  | 'EmptyText'
  | 'UnansweredToolCall'
  | 'OrphanToolResult'
  | 'ResultsNotFirst'
  | 'DuplicateToolCallId'
  | 'InvalidToolCallId'
  | 'InvalidArguments'
  | 'MisplacedBlock'
  | 'UnsupportedMediaType'
  | 'ThinkingWithoutSignature'
  | 'ReasoningOnly'
  | 'TrailingWhitespace'
  | 'TooManyCacheBreakpoints'
  | 'CacheTtlOrder'
  | 'InvalidName'

/** One broken rule. `path` points into the request, e.g. `messages[3].content[1]`. */
export interface Violation {
  readonly _tag: ViolationRule
  readonly path: string
  readonly message: string
}

/** @category constructors */
export const violation = (rule: ViolationRule, path: string, message: string): Violation => ({ _tag: rule, path, message })
