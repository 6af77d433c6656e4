import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gpt4o, scratchDir } from '../helpers.js'
import { run } from '../../src/cli/main.js'
import { cli } from './run.js'

const F = 'test/fixtures/cli'

describe('gssc build', () => {
  it('prints the context, and a report on stderr', async () => {
    const r = await cli(['build', '--query', 'Why does the compile step fail?', '--system', 'You help with CI.', '--history', `${F}/history.jsonl`, '--packets', `${F}/packets.jsonl`])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('[Role & Policies]\nYou help with CI.')
    expect(r.stdout).toContain('[Source: ci-log] npm ERR! Missing script: "compile"')
    expect(r.stdout).toContain('user: The compile step. It says the script is missing.')
    expect(r.stderr).toMatch(/^gssc: \d+ of 6800 tokens used \(max 8000, 1200 reserved\)/)
  })

  it('--json prints the output and the report', async () => {
    const r = await cli(['build', '-q', 'compile fails', '--packets', `${F}/packets.jsonl`, '--max-tokens', '2000', '--reserve-ratio', '0.1', '--json'])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(Object.keys(j)).toEqual(expect.arrayContaining(['output', 'tokenCount', 'tokenCountExact', 'budget', 'included', 'excluded', 'sections']))
    expect(j.tokenCount).toBe(gpt4o.count(j.output))
    expect(j.budget).toEqual({ maxTokens: 2000, reserved: 200, available: 1800, used: j.tokenCount })
    expect(j.included).toContain('log')
    expect(j.sections.map((s: { name: string }) => s.name)).toContain('evidence')
    expect(j.sections[0]).toEqual({ name: 'task', rank: 1, tokens: expect.any(Number), packetIds: ['task'] })
  })

  it('reads the system prompt from @file and uses the template and locale', async () => {
    const r = await cli(['build', '-q', 'compile', '--system', `@${F}/history.jsonl`, '--structurer', 'template', '--template', `${F}/template.txt`, '--packets', `${F}/packets.jsonl`])
    expect(r.code).toBe(0)
    expect(r.stdout.startsWith('Rules: {"role":"user"')).toBe(true)
    expect(r.stdout).toContain('Question: compile\nFacts:\n')
    const zh = await cli(['build', '-q', '编译失败', '--locale', 'zh'])
    expect(zh.stdout).toContain('用户问题：编译失败')
  })

  it.each([
    [['--packets', `${F}/bad-json.jsonl`], /^gssc build: test\/fixtures\/cli\/bad-json\.jsonl:2:31: not valid JSON: unexpected text\n$/],
    [['--packets', `${F}/bad-type.jsonl`], /bad-type\.jsonl:2: type: must be one of instructions, task, task_state, evidence, history, custom \(got "fact"\)/],
    [['--packets', `${F}/dup-id.jsonl`], /dup-id\.jsonl:2: id "a" is already used on line 1/],
    [['--history', `${F}/bad-history.json`], /bad-history\.json:1: \[1\]\.role: must be one of system, user, assistant, tool \(got "robot"\)/],
    [['--history', `${F}/missing.jsonl`], /missing\.jsonl: no such file/],
    [['--structurer', 'template', '--template', `${F}/bad-template.txt`], /bad-template\.txt: template placeholder \{\{nope\}\}: unknown/],
    [['--structurer', 'template'], /--structurer template: needs --template <file>/],
  ])('bad input %j fails with a message naming it', async (args, message) => {
    const r = await cli(['build', '-q', 'x', ...args])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })

  it.each([
    [['--max-tokens', '-5'], /--max-tokens must be a positive whole number up to 9007199254740991 \(got "-5"\)/],
    [['--max-tokens', '9007199254740993'], /--max-tokens must be a positive whole number/],
    [['--max-tokens', '1e999'], /--max-tokens must be a positive whole number/],
    [['--max-tokens', '12.5'], /--max-tokens must be a positive whole number/],
    [['--max-tokens', '0x10'], /--max-tokens must be a positive whole number/],
    [['--max-history', 'NaN'], /--max-history must be a non-negative whole number up to 9007199254740991, or "all"/],
    [['--keep-recent', '3.0'], /--keep-recent must be a non-negative whole number/],
    [['--reserve-ratio', 'Infinity'], /--reserve-ratio must be a number in \[0, 1\)/],
    [['--min-relevance', '0x1'], /--min-relevance must be a number in \[0, 1\]/],
    [['--model', 'gpt4o'], /--model unknown model "gpt4o"; name an OpenAI model .* or estimate/],
    [['--history', '-', '--packets', '-'], /only one flag can read standard input \(-\); got --history, --packets/],
    [['--reserve-ratio', '1'], /--reserve-ratio must be a number in \[0, 1\) \(got "1"\)/],
    [['--structurer', 'fancy'], /Allowed choices are default, sectioned, chat, minimal, template/],
  ])('bad usage %j exits 2 with one line and where to look, not the whole help', async (args, message) => {
    const r = await cli(['build', '-q', 'x', ...args])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.any(String), "(see 'gssc build --help')"])
  })

  it('shows control characters of names and values as visible symbols in everything it prints to a terminal', async () => {
    const evil = 'x\u001b]0;pwned\u0007\u001b[2J.jsonl'
    const missing = await cli(['build', '-q', 'x', '--history', evil])
    expect(missing.stderr).toBe('gssc build: x␛]0;pwned␇␛[2J.jsonl: no such file\n')
    const usage = await cli(['build', '-q', 'x', '--max-tokens', '\u001b[31m5'])
    expect(usage.stderr).not.toMatch(/\u001b/)
    expect(usage.stderr).toContain('␛[31m5')
    // the context itself: raw when piped (it is data), visible on a terminal
    let tty = ''
    const code = await run(['build', '-q', 'clear \u001b[2J screen'], { stdout: { write: (t: string) => (tty += t), isTTY: true }, stderr: { write: () => true }, env: {}, cwd: process.cwd() })
    expect([code, tty]).toEqual([0, expect.stringContaining('clear ␛[2J screen')])
    expect((await cli(['build', '-q', 'clear \u001b[2J screen'])).stdout).toContain('clear \u001b[2J screen')
  })

  it('--version prints the version', async () => {
    const r = await cli(['--version'])
    expect([r.code, r.stdout.trim()]).toEqual([0, JSON.parse(readFileSync('package.json', 'utf8')).version])
  })

  it('reads - from standard input, for every file flag, with a BOM', async () => {
    const history = '\ufeff[{"role":"user","content":"The compile step fails."}]'
    const h = await cli(['build', '-q', 'compile', '--history', '-'], {}, history)
    expect([h.code, h.stdout]).toEqual([0, expect.stringContaining('user: The compile step fails.')])
    const p = await cli(['build', '-q', 'script', '--packets', '-'], {}, '{"type":"evidence","content":"needs a script","source":"log","timestamp":"2026-11-22T06:00:00Z"}\n')
    expect(p.stdout).toContain('[Source: log] needs a script')
    const s = await cli(['build', '-q', 'compile', '--system', '@-'], {}, 'Be brief.')
    expect(s.stdout).toContain('[Role & Policies]\nBe brief.')
    const t = await cli(['build', '-q', 'compile', '--structurer', 'template', '--template', '-'], {}, 'Q: {{task}}')
    expect(t.stdout).toBe('Q: compile\n')
    const session = await cli(['build', '-q', 'compile', '--session', '-'], {}, readFileSync('test/fixtures/session/seed.jsonl'))
    expect(session.code).toBe(0)
    expect(session.stderr).toMatch(/session <stdin>: seed/)
    const chunks = await cli(['build', '--chunks', '-', '--structurer', 'xml'], {}, '{"chunks":{"c1":{"id":"c1","type":"AGENT","content":{"type":"TEXT","text":"hi","role":"user"}}}}')
    expect(chunks.stdout).toContain('hi')
    const bad = await cli(['build', '-q', 'x', '--history', '-'], {}, '[{"role":"user","content":"a"},\n')
    expect([bad.code, bad.stderr]).toEqual([1, 'gssc build: <stdin>:2:1: not valid JSON: the text ends too early: a value is expected\n'])
  })

  it('reports history turns beyond --max-history in the summary, --explain and the HTML report', async () => {
    const dir = scratchDir('gssc-limit-')
    const file = join(dir, 'sixty.jsonl')
    writeFileSync(file, Array.from({ length: 60 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` })).join('\n'))
    const report = join(dir, 'report.html')
    const r = await cli(['build', '-q', 'turn', '--history', file, '--explain', '--report', report])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('gssc: left out history:0..49 (history_limit): 50 older turn(s) before the last 10 (maxHistoryMessages); not counted')
    expect(r.stderr).toMatch(/history:0\.\.49 +history_limit/)
    expect(readFileSync(report, 'utf8')).toContain('<code>history_limit</code>')
    const j = JSON.parse((await cli(['build', '-q', 'turn', '--history', file, '--json'])).stdout)
    expect(j.excluded).toContainEqual(expect.objectContaining({ id: 'history:0..49', reason: 'history_limit' }))
  })

  it('requires a query', async () => {
    const r = await cli(['build'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--query is required')
  })

  it('--help lists the options', async () => {
    const r = await cli(['build', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('--reserve-ratio <r>')
  })
})
