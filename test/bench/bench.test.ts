/**
 * The benchmark modules run on tiny inputs and return well-formed rows. No timing is
 * asserted: timings belong to `npm run bench`, on a machine whose load is reported.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { floorJob, gsscBuild, gsscJob, inMemoryRebuild, interleave, linearFloor, newestFirst, sessionEndToEnd, tokenizeAll, type Effort } from '../../bench/core.js'
import { evidence, history, kindOf, message, NOW, prng } from '../../bench/data.js'
import { machineSpeedup } from '../../bench/batch.js'
import { langchainTrim, plan } from '../../bench/langchain.js'
import { betweenMarkers, formatBench, runBench, writeResults, QUICK } from '../../bench/run.js'
import { fastThroughput } from '../../bench/tokenizer.js'
import { gpt4o } from '../helpers.js'

const ONCE: Effort = { minRuns: 1, minMs: 0, maxRuns: 2 }

describe('bench data', () => {
  it('is deterministic and mixes English, Chinese, code and JSON', () => {
    expect(history(20, NOW)).toEqual(history(20, NOW))
    expect(evidence(5)).toEqual(evidence(5))
    const r = prng(1)
    const kinds = Array.from({ length: 5 }, (_, i) => [kindOf(i), message(r, i)] as const)
    expect(kinds.map(([k]) => k)).toEqual(['english', 'english', 'chinese', 'code', 'json'])
    for (const [, text] of kinds) expect(text).toHaveLength(200)
    expect(kinds[2]![1]).toMatch(/[\u4e00-\u9fff]+[，。、][\u4e00-\u9fff]/)
    expect(() => JSON.parse(kinds[4]![1].slice(0, kinds[4]![1].indexOf('}') + 1))).not.toThrow()
  })
})

describe('bench core', () => {
  it('times a gssc build and checks its count', async () => {
    const row = await gsscBuild(gpt4o, 30, 10, ONCE)
    expect(row.timing.runs).toBeGreaterThanOrEqual(1)
    expect(row.timing.ms).toBeGreaterThan(0)
    expect(row.countChecked).toBe(true)
    expect(row.tokenCount).toBeLessThanOrEqual(6800)
    expect(row.kept).toBeGreaterThan(0)
  })

  it('the linear floor keeps the newest turns that fit', async () => {
    expect(newestFirst((t) => t.length, ['aaaa', 'bb', 'c'], 3)).toEqual({ kept: 2, tokens: 3 })
    const row = await linearFloor(gpt4o.count, 50, ONCE)
    expect(row.kept).toBe(50)
    const t = await interleave(ONCE, { a: floorJob(gpt4o.count, 10), b: floorJob((s) => s.length, 10) })
    expect(Object.keys(t)).toEqual(['a', 'b'])
    expect((await tokenizeAll(gpt4o, 10, 5, ONCE)).texts).toBe(15)
  })

  it('each floor builds exactly gssc\'s output: history alone, and evidence ranked by relevance with history after it', async () => {
    for (const [turns, passages] of [
      [300, 0],
      [30, 20],
      [300, 400],
    ] as const) {
      const gssc = gsscJob(gpt4o, turns, passages)
      await gssc.run()
      const floor = floorJob(gpt4o.count, turns, passages, (t, above) => gpt4o.lowerBound(t, above))
      await floor.run()
      expect({ turns, passages, output: floor.result().output }).toEqual({ turns, passages, output: gssc.result().output })
      expect(floor.result().tokens).toBe(gssc.result().tokenCount)
    }
  })

  it('measures an in-memory rebuild', async () => {
    const r = await inMemoryRebuild(gpt4o, 40, 0, 2)
    expect(r.rounds).toBe(2)
    expect(r.coldMs).toBeGreaterThan(0)
    expect(r.rebuildMs).toBeGreaterThan(0)
    // each rebuild appended to the previous result and gave the cold build's output and count
    expect(r.checked).toBe(true)
  })

  it('measures the session route end to end', async () => {
    const r = await sessionEndToEnd(gpt4o, 300, 2)
    expect(r).toMatchObject({ messages: 300, rounds: 2 })
    expect(r.coldMs).toBeGreaterThan(0)
    expect(r.rebuildMs).toBeGreaterThan(0)
    // the rebuild read only the appended line, and its context (with the cold build's token cache) is a cold build's
    expect(r.checked).toBe(true)
  })
})

describe('bench batch', () => {
  it("measures the machine's own speed-up on worker threads, for arithmetic and for memory reads", async () => {
    const r = await machineSpeedup(2, 2, 1)
    for (const v of [r.compute, r.memory]) {
      expect(Number.isFinite(v)).toBe(true)
      expect(v).toBeGreaterThan(0)
    }
  })
})

describe('bench langchain', () => {
  it('plans the quadratic call pattern of trimMessages', () => {
    // every message costs 3 + 1 (role) + its length; 3 for the reply
    const p = plan(['aaaa', 'bb', 'c'], ['user', 'assistant', 'user'], (t) => (t === 'user' || t === 'assistant' ? 1 : t.length), 3 + 5 + 6)
    expect(p).toEqual({ kept: 2, counterCalls: 2, charsPassed: 7 + 3 })
  })

  it('runs trimMessages to the end on a short history, and projects a stopped run', async () => {
    const done = await langchainTrim(20, gpt4o, 30)
    expect(done.completed).toBe(true)
    expect(done.kept).toBe(20)
    expect(done.counterCalls).toBe(1)
    const stopped = await langchainTrim(300, gpt4o, 0)
    expect(stopped.completed).toBe(false)
    expect(stopped.seconds).toBeGreaterThan(stopped.ranSeconds)
    expect(stopped.charsPassed).toBeGreaterThan(300 * 200)
  })
})

describe('bench tokenizer', () => {
  it('reports MB/s for the default engine', () => {
    const rows = fastThroughput('o200k_base', ['chinese prose'], 2000, 0)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.MBps).toBeGreaterThan(0)
    expect(rows[0]!.tokens).toBeGreaterThan(0)
  })
})

describe('bench run', () => {
  it('produces every ratio key and target, and formats them', async () => {
    const r = await runBench({
      ...QUICK,
      sizes: [30, 60],
      peerSizes: [30],
      slowPeerSizes: [30],
      passages: 10,
      deadlineSeconds: 5,
      effort: ONCE,
      rebuildSizes: [60],
      rebuildRounds: 1,
      sessionSizes: [],
      startupRounds: 0,
      unusedBuilds: 3,
      tokenizerMs: 0,
      fitSizes: [40],
      batch: { files: 0, messages: 0, rounds: 0 },
      progress: () => {},
    })
    const keys = ['vsLinearFloor10k', 'vsLinearFloor100k', 'vsLinearFloor10kWithEvidence', 'rebuildVsCold10k', 'rebuildVsCold100k', 'rebuildVsColdSession10k', 'rebuildVsColdSession100k', 'build1MVs10k', 'cliHelpVsNode', 'cliBuildVsNode', 'importMs', 'coldFirstCountMs', 'peakRssMB200MBSession', 'session200MBSeconds', 'unusedTokensMean', 'chineseMBps', 'englishMBps', 'vsBestPeerTokenizer']
    for (const key of keys) expect(Object.keys(r.ratios)).toContain(key)
    for (const key of ['vsLinearFloor10kWithEvidence', 'unusedTokensMean', 'chineseMBps', 'englishMBps', 'vsBestPeerTokenizer'] as const) expect(Number.isFinite(r.ratios[key])).toBe(true)
    expect(r.targets.map((t) => t.key)).toContain('vsLinearFloor10k')
    for (const b of r.builds) expect(b.countChecked).toBe(true)
    // every peer's output re-counted, within the budget
    expect(new Set(r.peers.map((p) => p.peer)).size).toBe(5)
    for (const p of r.peers) expect(p.withinBudget).toBe(true)
    expect(JSON.parse(JSON.stringify(r)).ratios.unusedTokensMean).toBe(r.ratios.unusedTokensMean)
    const text = formatBench(r)
    // priompt is measured when `npm run bench:peers` installed it; otherwise its row says how
    const priompt = r.peers.find((p) => p.peer.startsWith('priompt'))!
    expect(text).toContain(priompt.status === 'absent' ? 'not installed (`npm run bench:peers`)' : `${priompt.kept} kept`)
    expect(text).toContain('@vscode/prompt-tsx')
    expect(text).toContain('| 60 |')
    // fitMessages' row: its count is the cookbook's count of what it returned
    expect(r.fit.map((f) => [f.messages, f.countChecked])).toEqual([[40, true]])
    expect(Number.isFinite(r.ratios.fitMessages10kVsFloor)).toBe(false)
    // what `--from r.json --write` writes: a full run's tables; a quick run's are refused
    const root = mkdtempSync(join(tmpdir(), 'gssc-bench-write-'))
    mkdirSync(join(root, 'bench'))
    writeFileSync(join(root, 'README.md'), '# gssc\n\n## Performance\n\nText.\n')
    expect(() => writeResults(r, root)).toThrow(/quick run/)
    expect(existsSync(join(root, 'bench', 'results.md'))).toBe(false)
    const full = { ...r, config: { ...r.config, quick: false } }
    writeResults(full, root)
    expect(readFileSync(join(root, 'bench', 'results.md'), 'utf8')).toContain(formatBench(full))
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/<!-- bench:start -->\nLast full run: [^]*\n<!-- bench:end -->\n\nText\.\n$/)
  }, 180_000)

  it("writes the README's table between the bench markers, adding them when missing", () => {
    const readme = '# gssc\n\n## Performance\n\nText.\n\n## Next\n'
    const once = betweenMarkers(readme, '| a |')
    expect(once).toBe('# gssc\n\n## Performance\n\n<!-- bench:start -->\n| a |\n<!-- bench:end -->\n\nText.\n\n## Next\n')
    expect(betweenMarkers(once, '| b |')).toBe(once.replace('| a |', '| b |'))
    expect(betweenMarkers('# gssc\n', '| a |')).toBe('# gssc\n\n## Performance\n\n<!-- bench:start -->\n| a |\n<!-- bench:end -->\n')
  })
})
