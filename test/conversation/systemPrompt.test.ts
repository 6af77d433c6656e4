import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { composeSystemPrompt, personaSection, runDirectiveSection, toolPolicySection } from '../../src/conversation/systemPrompt.js'
import { PART_SEPARATOR } from '../../src/structure/parts.js'
import { defaultTemplates, TEMPLATE_FILES, type PromptTemplates } from '../../src/conversation/templates.js'
import { defaultTemplatesDir, loadTemplates } from '../../src/conversation/templateFiles.js'
import type { AgentInfo, RunContext } from '../../src/conversation/types.js'
import { scratchDir } from '../helpers.js'

// small stand-ins make the exact layout visible; the shipped files are tested below
const T: PromptTemplates = { baseRulesChat: 'CHAT RULES', baseRulesRun: 'RUN RULES', toolPolicy: 'TOOL RULES', runDirectiveProtocol: 'PROTOCOL' }

const agent: AgentInfo = {
  id: 'agent_1',
  name: 'Ada',
  role: 'Code reviewer',
  identity: 'A senior TypeScript engineer',
  communicationStyle: 'Direct and brief',
  principles: ['Read before judging', 'Suggest, do not rewrite'],
}

const run: RunContext = {
  packageName: 'release-kit',
  workflowName: 'publish',
  currentStep: { id: 'step_2', name: 'Write changelog', instruction: 'Summarise the merged PRs since the last tag.' },
  state: { stepsCompleted: ['Collect PRs', 'Bump version'], artifacts: ['prs.json'], variables: { version: '1.4.0', count: 12 } },
  graph: {
    outgoingEdges: [
      { label: 'approved', targetNodeId: 'step_3', isDefault: true },
      { label: 'needs work', targetNodeId: 'step_2' },
    ],
  },
}

describe('composeSystemPrompt', () => {
  it('chat mode: mode header and chat rules only', () => {
    expect(composeSystemPrompt({ mode: 'chat', templates: T })).toBe('# Mode: CHAT\n\n---\n\nCHAT RULES')
  })

  it('agent mode uses the chat rules, then tool policy, then persona, in the seed\'s order', () => {
    const prompt = composeSystemPrompt({ mode: 'agent', agent, toolPolicy: { allowedTools: ['read_file'] }, templates: T })
    expect(prompt.split(PART_SEPARATOR)).toEqual([
      '# Mode: AGENT',
      'CHAT RULES',
      '## Tool Policy\nAllowed tools: read_file\n\nTOOL RULES',
      '## Agent Persona\n**Name:** Ada\n**Role:** Code reviewer\n**Identity:** A senior TypeScript engineer\n**Communication Style:** Direct and brief\n\n**Principles:**\n- Read before judging\n- Suggest, do not rewrite',
    ])
  })

  it('run mode: run rules and, last, the run directive', () => {
    const parts = composeSystemPrompt({ mode: 'run', agent, runContext: run, templates: T }).split(PART_SEPARATOR)
    expect(parts.map((p) => p.split('\n')[0])).toEqual(['# Mode: RUN', 'RUN RULES', '## Agent Persona', '## Run Directive'])
  })

  it('leaves the run directive out of other modes, and run mode without a run context', () => {
    expect(composeSystemPrompt({ mode: 'chat', runContext: run, templates: T })).not.toContain('Run Directive')
    expect(composeSystemPrompt({ mode: 'agent', runContext: run, templates: T })).not.toContain('Run Directive')
    expect(composeSystemPrompt({ mode: 'run', templates: T })).toBe('# Mode: RUN\n\n---\n\nRUN RULES')
  })

  it('leaves empty parts out: an empty policy, an empty template', () => {
    expect(composeSystemPrompt({ mode: 'chat', toolPolicy: {}, templates: { ...T, baseRulesChat: '  ' } })).toBe('# Mode: CHAT')
  })

  it('reads the shipped templates when none are given', () => {
    const prompt = composeSystemPrompt({ mode: 'run', runContext: run, toolPolicy: { deniedTools: ['rm'] } })
    const shipped = defaultTemplates()
    expect(prompt).toContain(shipped.baseRulesRun)
    expect(prompt).toContain(shipped.toolPolicy)
    expect(prompt).toContain(shipped.runDirectiveProtocol)
    expect(prompt).not.toContain(shipped.baseRulesChat)
  })
})

describe('toolPolicySection', () => {
  it('writes every rule in the seed\'s line format', () => {
    expect(
      toolPolicySection(
        { allowedCategories: ['fs', 'project', 'ui'], deniedCategories: ['net'], allowedTools: ['read_file', 'grep'], deniedTools: ['rm'], customRules: ['Ask before writing', 'Never push'] },
        T,
      ),
    ).toBe(
      [
        '## Tool Policy',
        'Allowed categories: fs, project, ui',
        'Denied categories: net',
        'Allowed tools: read_file, grep',
        'Denied tools: rm',
        '',
        '### Custom Rules',
        '- Ask before writing',
        '- Never push',
        '',
        'TOOL RULES',
      ].join('\n'),
    )
  })

  it('is empty for a policy without rules (empty lists count as none)', () => {
    expect(toolPolicySection({ allowedTools: [], customRules: [] }, T)).toBe('')
  })
})

describe('personaSection', () => {
  it('uses a precompiled systemPrompt instead of the persona when it has text', () => {
    expect(personaSection({ ...agent, systemPrompt: 'You are Ada.' })).toBe('You are Ada.')
    expect(personaSection({ ...agent, systemPrompt: '  \n' })).toContain('## Agent Persona')
  })

  it('writes only the fields that are there', () => {
    expect(personaSection({ id: 'a', name: 'Bo', role: 'Helper', principles: [] })).toBe('## Agent Persona\n**Name:** Bo\n**Role:** Helper')
  })
})

describe('runDirectiveSection', () => {
  it('writes the seed\'s lines, the run state, the transitions with the default marked, and the protocol', () => {
    expect(runDirectiveSection(run, T)).toBe(
      [
        '## Run Directive',
        '**Package:** release-kit',
        '**Workflow:** publish',
        '**Current Step:** Write changelog (step_2)',
        '',
        '### Step Instruction',
        'Summarise the merged PRs since the last tag.',
        '',
        '**Completed Steps:** Collect PRs → Bump version',
        '',
        '**Artifacts:** prs.json',
        '',
        '### Variables',
        '- version: 1.4.0',
        '- count: 12',
        '',
        '### Available Transitions',
        '- **approved** → step_3 (default)',
        '- **needs work** → step_2',
        '',
        'PROTOCOL',
      ].join('\n'),
    )
  })

  it('leaves out what the run context does not have', () => {
    const bare: RunContext = { packageName: 'p', workflowName: 'w', currentStep: { id: 's', name: 'S', instruction: 'Do it.' } }
    expect(runDirectiveSection(bare, { ...T, runDirectiveProtocol: '' })).toBe(
      '## Run Directive\n**Package:** p\n**Workflow:** w\n**Current Step:** S (s)\n\n### Step Instruction\nDo it.',
    )
  })
})

describe('templates', () => {
  it('ships the four template files, found from the module\'s own location', () => {
    expect(defaultTemplatesDir().endsWith('/templates/')).toBe(true)
    const t = defaultTemplates()
    for (const key of Object.keys(TEMPLATE_FILES) as Array<keyof PromptTemplates>) {
      expect(t[key].length).toBeGreaterThan(100)
      expect(t[key]).toBe(t[key].trim())
    }
    expect(t.baseRulesChat.startsWith('## Base Rules')).toBe(true)
    expect(t.toolPolicy.startsWith('### General Rules')).toBe(true)
  })

  it('embeds exactly the shipped files (run scripts/embed-templates.mjs after editing templates/)', () => {
    expect(defaultTemplates()).toEqual(E.getOrElseW(() => undefined)(loadTemplates()))
  })

  it('loads templates from another folder, and names the file it cannot read', () => {
    const dir = scratchDir('gssc-templates-')
    for (const [key, file] of Object.entries(TEMPLATE_FILES)) writeFileSync(join(dir, file), `\n${key} text\n`)
    expect(loadTemplates(dir)).toEqual(E.right({ baseRulesChat: 'baseRulesChat text', baseRulesRun: 'baseRulesRun text', toolPolicy: 'toolPolicy text', runDirectiveProtocol: 'runDirectiveProtocol text' }))
    const missing = loadTemplates(join(dir, 'nope'))
    expect(E.isLeft(missing) && missing.left.message).toMatch(/nope\/base-rules-chat\.md: cannot read template: ENOENT/)
  })
})
