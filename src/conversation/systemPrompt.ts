/**
 * Composes the system prompt of a session (seed 001's `composeSystemPrompt`), in the seed's
 * order, parts joined by `\n\n---\n\n`, empty parts left out:
 *
 * 1. the mode header, `# Mode: CHAT` / `AGENT` / `RUN`;
 * 2. the base rules: `base-rules-run.md` in run mode, `base-rules-chat.md` in chat **and
 *    agent** mode (the seed's choice: everything that is not a workflow run is a conversation;
 *    agent specifics come from the persona and the tool policy);
 * 3. the tool policy, when it has at least one rule: the seed's lines, then `tool-policy.md`
 *    (the general tool rules the seed imported but never used);
 * 4. the agent persona, or the agent's precompiled `systemPrompt` instead when it has text;
 * 5. in run mode with a run context, the run directive: the seed's lines, the run state the
 *    seed dropped (`**Artifacts:**`, `### Variables`), then `run-directive-protocol.md` (how to
 *    finish the step and name a transition, which the seed imported but never used).
 *
 * @module
 */
import { match } from 'ts-pattern'
import { hasText } from '../render/blank.js'
import { PART_SEPARATOR } from '../structure/parts.js'
import { defaultTemplates, type PromptTemplates } from './templates.js'
import type { AgentInfo, ContextBuildOptions, RunContext, SessionMode, ToolPolicyConfig } from './types.js'

const some = (xs: ReadonlyArray<string> | undefined): xs is ReadonlyArray<string> => xs !== undefined && xs.length > 0

/**
 * The base rules of a mode.
 *
 * @category utils
 * @since 0.1.0
 */
export const baseRules = (mode: SessionMode, templates: PromptTemplates): string =>
  match(mode)
    .with('run', () => templates.baseRulesRun)
    .with('chat', 'agent', () => templates.baseRulesChat)
    .exhaustive()

/**
 * The Tool Policy section; empty when the policy has no rule.
 *
 * @example
 * toolPolicySection({ allowedCategories: ['fs', 'project'] }, templates)
 * // '## Tool Policy\nAllowed categories: fs, project\n\n### General Rules\n…'
 * @category utils
 * @since 0.1.0
 */
export const toolPolicySection = (policy: ToolPolicyConfig, templates: PromptTemplates): string => {
  const lines = [
    ...(some(policy.allowedCategories) ? [`Allowed categories: ${policy.allowedCategories.join(', ')}`] : []),
    ...(some(policy.deniedCategories) ? [`Denied categories: ${policy.deniedCategories.join(', ')}`] : []),
    ...(some(policy.allowedTools) ? [`Allowed tools: ${policy.allowedTools.join(', ')}`] : []),
    ...(some(policy.deniedTools) ? [`Denied tools: ${policy.deniedTools.join(', ')}`] : []),
    ...(some(policy.customRules) ? ['', '### Custom Rules', ...policy.customRules.map((r) => `- ${r}`)] : []),
  ]
  if (lines.length === 0) return ''
  return ['## Tool Policy', ...lines, ...(templates.toolPolicy.length > 0 ? ['', templates.toolPolicy] : [])].join('\n')
}

/**
 * The Agent Persona section, or the agent's own `systemPrompt` when it has any text.
 *
 * @category utils
 * @since 0.1.0
 */
export const personaSection = (agent: AgentInfo): string => {
  if (agent.systemPrompt !== undefined && hasText(agent.systemPrompt)) return agent.systemPrompt
  return [
    '## Agent Persona',
    `**Name:** ${agent.name}`,
    `**Role:** ${agent.role}`,
    ...(agent.identity ? [`**Identity:** ${agent.identity}`] : []),
    ...(agent.communicationStyle ? [`**Communication Style:** ${agent.communicationStyle}`] : []),
    ...(some(agent.principles) ? ['', '**Principles:**', ...agent.principles.map((p) => `- ${p}`)] : []),
  ].join('\n')
}

/**
 * The Run Directive section.
 *
 * @category utils
 * @since 0.1.0
 */
export const runDirectiveSection = (ctx: RunContext, templates: PromptTemplates): string => {
  const variables = Object.entries(ctx.state?.variables ?? {})
  const edges = ctx.graph?.outgoingEdges ?? []
  return [
    '## Run Directive',
    `**Package:** ${ctx.packageName}`,
    `**Workflow:** ${ctx.workflowName}`,
    `**Current Step:** ${ctx.currentStep.name} (${ctx.currentStep.id})`,
    '',
    '### Step Instruction',
    ctx.currentStep.instruction,
    ...(some(ctx.state?.stepsCompleted) ? ['', `**Completed Steps:** ${ctx.state.stepsCompleted.join(' → ')}`] : []),
    ...(some(ctx.state?.artifacts) ? ['', `**Artifacts:** ${ctx.state.artifacts.join(', ')}`] : []),
    ...(variables.length > 0 ? ['', '### Variables', ...variables.map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)] : []),
    ...(edges.length > 0 ? ['', '### Available Transitions', ...edges.map((e) => `- **${e.label}** → ${e.targetNodeId}${e.isDefault === true ? ' (default)' : ''}`)] : []),
    ...(templates.runDirectiveProtocol.length > 0 ? ['', templates.runDirectiveProtocol] : []),
  ].join('\n')
}

/** What {@link composeSystemPrompt} reads. */
export type ComposeOptions = Pick<ContextBuildOptions, 'mode' | 'agent' | 'toolPolicy' | 'runContext' | 'templates'>

/**
 * Composes the system prompt of a session. Pure when `templates` is given; otherwise it reads
 * the package's template files.
 *
 * @example
 * composeSystemPrompt({ mode: 'agent', agent: { id: 'a1', name: 'Ada', role: 'Reviewer' }, templates })
 * // '# Mode: AGENT\n\n---\n\n## Base Rules\n…\n\n---\n\n## Agent Persona\n**Name:** Ada\n**Role:** Reviewer'
 * @category constructors
 * @since 0.1.0
 */
export const composeSystemPrompt = (options: ComposeOptions): string => {
  const templates = options.templates ?? defaultTemplates()
  return [
    `# Mode: ${options.mode.toUpperCase()}`,
    baseRules(options.mode, templates),
    options.toolPolicy === undefined ? '' : toolPolicySection(options.toolPolicy, templates),
    options.agent === undefined ? '' : personaSection(options.agent),
    options.mode === 'run' && options.runContext !== undefined ? runDirectiveSection(options.runContext, templates) : '',
  ]
    .filter(hasText)
    .join(PART_SEPARATOR)
}
