/**
 * Every code sample a reader sees is real: each ```ts block of README.md and docs/*.md is
 * either a verbatim copy of an example (the line before it names "`examples/<name>.ts`"; the
 * block is the whole file, or a run of its whole lines; the examples are type-checked with the
 * project and run in their own tests), or a standalone module that is type-checked strictly
 * and run here. Imports of `gssc` and `gssc/<entry>` resolve to the sources (tsconfig `paths`
 * for the compiler, the vitest alias for the run), so a sample needs no build. Other fences
 * (sh, text, json, jsonl, untagged output) are not run.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

interface Block {
  readonly doc: string
  /** 1-based line of the opening fence. */
  readonly line: number
  readonly lang: string
  readonly code: string
  /** The last non-blank line before the fence. */
  readonly before: string
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const DOCS = ['README.md', ...readdirSync('docs').filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`)]
const OUT = resolve('test-artifacts/doc-samples')
const EXAMPLE = /`(examples\/[\w./-]+\.ts)`/

/** The fenced blocks of one Markdown file, with where they start. */
const blocks = (doc: string): ReadonlyArray<Block> => {
  const lines = readFileSync(doc, 'utf8').split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!)
    if (open === null) continue
    const end = lines.findIndex((l, j) => j > i && l.trimEnd() === '```')
    if (end < 0) throw new Error(`${doc}:${i + 1}: a code fence that is never closed`)
    let b = i - 1
    while (b >= 0 && lines[b]!.trim() === '') b--
    out.push({ doc, line: i + 1, lang: open[1]!, code: lines.slice(i + 1, end).join('\n'), before: b >= 0 ? lines[b]! : '' })
    i = end
  }
  return out
}

const tsBlocks = DOCS.flatMap(blocks).filter((b) => b.lang === 'ts' || b.lang === 'typescript')
const copies = tsBlocks.filter((b) => EXAMPLE.test(b.before))
const samples = tsBlocks.filter((b) => !EXAMPLE.test(b.before))

const fileOf = (b: Block): string => join(OUT, `${b.doc.replace(/[/.]/g, '_')}_L${b.line}.ts`)

/** The compiler's complaints about each sample, as `doc:line:column: message`. */
const typeCheck = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const config = ts.getParsedCommandLineOfConfigFile(resolve('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } })
  if (config === undefined) throw new Error('tsconfig.json: cannot be read')
  // samples show values without using them all; everything else is the project's strict setting
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false }
  const files = samples.map(fileOf)
  const program = ts.createProgram(files, options)
  const byFile = new Map<string, string[]>(files.map((f) => [f, []]))
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file === undefined ? undefined : resolve(d.file.fileName)
    const sample = samples.find((s) => fileOf(s) === name)
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    if (sample === undefined || d.file === undefined || d.start === undefined) {
      // a problem outside the samples (in src, or global) is every sample's problem
      for (const list of byFile.values()) list.push(`TS${d.code}: ${text}`)
      continue
    }
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start)
    byFile.get(name!)!.push(`${sample.doc}:${sample.line + 1 + line}:${character + 1}: TS${d.code}: ${text}`)
  }
  return byFile
}

// -------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------

describe('code samples in README.md and docs/*.md', () => {
  let problems: ReadonlyMap<string, ReadonlyArray<string>> = new Map()

  beforeAll(() => {
    rmSync(OUT, { recursive: true, force: true })
    mkdirSync(OUT, { recursive: true })
    // `export {}` keeps a sample a module even when it imports nothing, so top-level await works
    for (const s of samples) writeFileSync(fileOf(s), `${s.code}\nexport {}\n`)
    problems = typeCheck()
  }, 120_000)

  it('finds the samples', () => {
    expect(samples.length).toBeGreaterThan(10)
    expect(copies.length).toBeGreaterThan(2)
  })

  it.each(copies.map((b) => [`${b.doc}:${b.line}`, b] as const))('%s is a verbatim copy of the example it names', (_, b) => {
    const file = EXAMPLE.exec(b.before)![1]!
    const text = readFileSync(file, 'utf8').trimEnd()
    // the whole file, or a run of its whole lines
    const whole = b.code === text
    const excerpt = b.code.trim() !== '' && `\n${text}\n`.includes(`\n${b.code}\n`)
    expect(whole || excerpt, `${b.doc}:${b.line} should be ${file} or a run of its lines, as they are`).toBe(true)
  })

  it.each(samples.map((b) => [`${b.doc}:${b.line}`, b] as const))('%s type-checks and runs', async (_, b) => {
    expect(problems.get(fileOf(b)) ?? ['not type-checked']).toEqual([])
    await import(pathToFileURL(fileOf(b)).href)
  })
})
