/**
 * The default structurer's words, per locale. The Chinese set reproduces the seed's layout
 * text exactly (its section headings are English in brackets, the intro lines Chinese).
 *
 * @module
 */
import type { Locale } from '../config.js'
import type { Role } from '../message.js'

/** Every string the sectioned and template layouts print. */
export interface Labels {
  readonly instructions: string
  readonly task: string
  readonly taskIntro: string
  readonly state: string
  readonly stateIntro: string
  readonly evidence: string
  readonly evidenceIntro: string
  readonly source: (source: string) => string
  readonly context: string
  readonly contextIntro: string
  readonly custom: string
  readonly customIntro: string
  readonly output: string
  readonly outputFormat: string
  readonly speaker: (role: Role) => string
  readonly marker: string
}

// speaker labels made once: a label is made for every turn laid out, and the build's meter
// looks each one up (a string made afresh is hashed afresh)
const SPEAKER_EN: Readonly<Record<Role, string>> = { system: 'system: ', user: 'user: ', assistant: 'assistant: ', tool: 'tool: ' }

const EN: Labels = {
  instructions: '[Role & Policies]',
  task: '[Task]',
  taskIntro: 'User question: ',
  state: '[State]',
  stateIntro: 'Key progress and open questions:',
  evidence: '[Evidence]',
  evidenceIntro: 'Facts and references:',
  source: (s) => `[Source: ${s}] `,
  context: '[Context]',
  contextIntro: 'Conversation history and background:',
  custom: '[Notes]',
  customIntro: 'Additional notes:',
  output: '[Output]',
  outputFormat: [
    'Please answer in this format:',
    '1. Conclusion (concise and clear)',
    '2. Basis (the supporting evidence and its sources)',
    '3. Risks and assumptions (if any)',
    '4. Suggested next steps (if applicable)',
  ].join('\n'),
  speaker: (r) => SPEAKER_EN[r] ?? `${r}: `,
  marker: '... (content truncated)',
}

const ROLE_ZH: Readonly<Record<Role, string>> = { system: '系统', user: '用户', assistant: '助手', tool: '工具' }

const SPEAKER_ZH: Readonly<Record<Role, string>> = { system: `${ROLE_ZH.system}：`, user: `${ROLE_ZH.user}：`, assistant: `${ROLE_ZH.assistant}：`, tool: `${ROLE_ZH.tool}：` }

const ZH: Labels = {
  instructions: '[Role & Policies]',
  task: '[Task]',
  taskIntro: '用户问题：',
  state: '[State]',
  stateIntro: '关键进展与未决问题：',
  evidence: '[Evidence]',
  evidenceIntro: '事实与引用：',
  source: (s) => `[来源: ${s}] `,
  context: '[Context]',
  contextIntro: '对话历史与背景：',
  custom: '[Notes]',
  customIntro: '补充信息：',
  output: '[Output]',
  outputFormat: [
    '请按以下格式回答：',
    '1. 结论（简洁明确）',
    '2. 依据（列出支撑证据及来源）',
    '3. 风险与假设（如有）',
    '4. 下一步行动建议（如适用）',
  ].join('\n'),
  speaker: (r) => SPEAKER_ZH[r] ?? `${ROLE_ZH[r]}：`,
  marker: '... (内容已截断)',
}

/**
 * The label set of a locale.
 *
 * @category constructors
 * @since 0.1.0
 */
export const labelsFor = (locale: Locale): Labels => (locale === 'zh' ? ZH : EN)
