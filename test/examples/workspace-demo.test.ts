import { describe, expect, it } from 'vitest'
import { main, WORKSPACE } from '../../examples/workspace-demo.js'

describe('examples/workspace-demo', () => {
  it('builds the example workspace prompt, a turn with an image and a tool loop, and the tight-budget report', async () => {
    const out = await main()
    // the identity holds the workspace's absolute path, so its count depends on the checkout
    expect(out).toMatch(/^== system prompt: \d+ of 900 tokens ==\nIdentity {17}P0 +\d+  kept whole\n/)
    expect(out).toContain('IDENTITY.md              P0     0  not found in the workspace')
    expect(out).toContain('## Current Time\n2026-03-14 09:30 (Saturday) (Asia/Shanghai, UTC+08:00)')
    expect(out).toContain("## Today's Notes\n# 2026-03-14\n")
    expect(out).toContain('# Active Skills\n\n### Skill: memory\n\n# Memory\n')
    expect(out).toContain(`<skill available="false">\n    <name>github</name>\n    <description>Check issues and pull requests of the family's GitHub projects with the \`gh\` CLI.</description>\n    <location>${WORKSPACE}/skills/github/SKILL.md</location>\n    <requires>CLI: gh, ENV: GITHUB_TOKEN</requires>\n  </skill>`)
    expect(out).toContain('\n\n## Current Session\nChannel: telegram\nChat ID: 4242\n')
    expect(out).toContain('user      [image data:image/png;base64,…] Add this receipt to the budget, and will it rain tomorrow?')
    expect(out).toContain('assistant → exec({"cmd":"curl -s \\"wttr.in/Hangzhou?format=3\\""})\ntool      Hangzhou: 🌦 +14°C')
    const tight = /== the same workspace in 450 tokens: (\d+) ==/.exec(out)
    expect(Number(tight?.[1])).toBeLessThanOrEqual(450)
    expect(out).toContain("Today's Notes            P1     0  dropped to fit the 450-token budget after higher-priority parts")
    expect(out).toContain('AGENTS.md                P0    83  kept whole')
  })
})
