import { describe, expect, it } from 'vitest'
import { compressLog, lineShape } from '../../../src/compress/content/index.js'
import { gpt4o } from '../../helpers.js'

const build = [
  '$ npm run build',
  ...Array.from({ length: 300 }, (_, i) => `[${String(i).padStart(3, '0')}] compiling module-${i}.ts (${i * 7} ms)`),
  'src/app.ts(12,5): error TS2304: Cannot find name foo.',
  'src/app.ts(40,9): error TS2304: Cannot find name bar.',
  'warning: 3 deprecated packages',
  ...Array.from({ length: 50 }, (_, i) => `  step ${i} done`),
  'Build failed with 2 errors.',
].join('\n')

describe('compressLog', () => {
  it('folds lines of one shape, keeps both errors (one shape, two places), the warning and the last line', () => {
    const r = compressLog(build, 120, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    expect(r.tokens).toBeLessThanOrEqual(120)
    expect(r.text).toContain('src/app.ts(12,5): error TS2304: Cannot find name foo.')
    expect(r.text).toContain('src/app.ts(40,9): error TS2304: Cannot find name bar.')
    expect(r.text).toContain('warning: 3 deprecated packages')
    expect(r.text.split('\n').at(-1)).toBe('Build failed with 2 errors.')
    expect(r.text).toContain('[000] compiling module-0.ts (0 ms)\n... 299 more similar lines')
    expect(r.removed).toContainEqual({ _tag: 'RepeatedLines', line: 3, lines: 299 })
  })

  it('never folds the last line, the outcome, into the lines of its shape before it', () => {
    const progress = ['$ tsc --build', ...Array.from({ length: 40 }, (_, i) => `compiled ${i + 1} of 40 files`)].join('\n')
    const r = compressLog(progress, 60, gpt4o)
    expect(r._tag).toBe('Fitted')
    if (r._tag !== 'Fitted') return
    expect(r.text.split('\n').at(-1)).toBe('compiled 40 of 40 files')
    expect(r.text).toContain('compiled 1 of 40 files\n... 38 more similar lines\ncompiled 40 of 40 files')
    expect(r.removed).toContainEqual({ _tag: 'RepeatedLines', line: 3, lines: 38 })
  })

  it('keeps the first errors when not all of them fit, and says how many lines it left out', () => {
    const many = Array.from({ length: 200 }, (_, i) => `file${i}.ts(${i},1): error TS1005: ';' expected near token number ${i * 13}.`).join('\n')
    const r = compressLog(many, 100, gpt4o)
    expect(r._tag === 'Fitted' && r.text.startsWith('file0.ts(0,1): error')).toBe(true)
    expect(r._tag === 'Fitted' && r.removed.some((x) => x._tag === 'Lines')).toBe(true)
  })

  it('blurs numbers, ids and quoted values into a shape', () => {
    expect(lineShape('12:00:01 GET /users/42 200 in 5ms id=deadbeef1')).toBe(lineShape('12:00:02 GET /users/7 200 in 15ms id=cafebabe2'))
    expect(lineShape('GET /users')).not.toBe(lineShape('POST /users'))
  })
})
