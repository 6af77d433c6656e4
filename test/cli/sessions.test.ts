import { describe, expect, it } from 'vitest'
import { writeSession } from '../session/helpers.js'
import { assistant, text, user } from '../session/claude/lines.js'
import { fixture as shared } from '../shared.js'
import { cli } from './run.js'

describe('gssc sessions', () => {
  it('prints whole leaf ids, which --leaf accepts', async () => {
    const r = await cli(['sessions', shared('claude-code', 'tool_heavy.jsonl')])
    expect(r.stdout).toContain('* 29e6224a-ea4f-445c-964f-d2bbddd138d0 ')
    const leaf = await cli(['build', '--session', shared('claude-code', 'tool_heavy.jsonl'), '--leaf', '29e6224a-ea4f-445c-964f-d2bbddd138d0', '--json'])
    expect(leaf.code).toBe(0)
  })

  it('shows control characters of previews, labels and problems as visible symbols', async () => {
    const hostile = '\u001b]0;pwned\u0007\u001b[2Jclear'
    const file = writeSession('hostile.jsonl', [user('u1', null, 0, `title ${hostile}`), assistant('a1', 'u1', 1, 'm1', [text(`answer ${hostile}`)]), `{"type":"bogus\\u001b[31m"}`])
    const r = await cli(['sessions', file])
    expect(r.code).toBe(0)
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    expect(r.stdout).toContain('answer ␛]0;pwned␇␛[2Jclear')
    expect(r.stderr).toMatch(/hostile\.jsonl:3: unknown line type "bogus\\u001b\[31m"/)
  })
})
