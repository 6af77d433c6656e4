import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })

describe('imports', () => {
  it('import fp-ts through fp-ts/lib/*.js: fp-ts has no exports map, and Node rejects directory imports', () => {
    const bad = files('src').flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/from 'fp-ts\/(?!lib\/[A-Za-z]+\.js')/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(bad).toEqual([])
  })
})
