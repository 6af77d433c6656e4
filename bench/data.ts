/**
 * Deterministic benchmark data: ~200-character chat messages mixing English prose, Chinese,
 * code and JSON tool results, and evidence passages. Same seed, same data, every run.
 *
 * Chinese messages are punctuated (，。、 between words, as real Chinese is). An
 * unpunctuated 200-character run of Han characters is a single pre-tokenizer piece, on which
 * js-tiktoken's quadratic merge takes ~50 ms per message: that would measure a pathology,
 * not LangChain.
 *
 * @module
 */
import type { PacketInput, SimpleMessage } from '../src/index.js'
import { prng } from '../src/internal/prng.js'

export { prng }

const EN = 'the build fails because the compile script is missing from package json so we rename it and rerun the pipeline after checking node version cache deploy staging certificate rotation tests flaky date monday release notes'.split(' ')
const ZH = '构建 失败 因为 编译 脚本 缺少 我们 需要 检查 节点 版本 缓存 部署 证书 测试 周一 发布 说明 配置 文件'.split(' ')
const ZH_PUNCT = ['，', '，', '。', '、']
const CODE = ['const x = await build(config);', 'if (!ok) throw new Error(`failed: ${code}`);', 'export function rename(a: string) { return a.trim() }', 'for (const f of files) { await rm(f) }']

const pick = <A>(r: () => number, xs: ReadonlyArray<A>): A => xs[Math.floor(r() * xs.length)]!

/** The kind of message `i`: the kinds cycle prose, prose, Chinese, code, JSON. */
export type Kind = 'english' | 'chinese' | 'code' | 'json'

/** The kind {@link message} gives message `i`. */
export const kindOf = (i: number): Kind => (['english', 'english', 'chinese', 'code', 'json'] as const)[i % 5]!

/** One message of about `chars` characters, of kind {@link kindOf}(`i`). */
export const message = (r: () => number, i: number, chars = 200): string => {
  const kind = kindOf(i)
  let s = ''
  while (s.length < chars) {
    if (kind === 'chinese') s += (s.length > 0 && r() < 0.3 ? pick(r, ZH_PUNCT) : '') + pick(r, ZH)
    else if (kind === 'code') s += `${pick(r, CODE)}\n`
    else if (kind === 'json') s += JSON.stringify({ tool: 'read', path: `src/${pick(r, EN)}.ts`, lines: Math.floor(r() * 400), ok: r() > 0.2 })
    else s += `${pick(r, EN)} `
  }
  return s.slice(0, chars)
}

/** `n` alternating user/assistant turns, one minute apart, ending at `now`. */
export const history = (n: number, now: number, seed = 42): SimpleMessage[] => {
  const r = prng(seed)
  return Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: message(r, i), timestamp: now - (n - i) * 60_000 }))
}

/** `n` evidence passages from 50 sources: two English passages for every Chinese one. */
export const evidence = (n: number, seed = 7): PacketInput[] => {
  const r = prng(seed)
  return Array.from({ length: n }, (_, i) => ({ id: `doc:${i}`, type: 'evidence', content: message(r, i % 3 === 2 ? 2 : 0, 200), source: `doc-${i % 50}` }))
}

/** The query every benchmark build uses. */
export const QUERY = 'Why does the build fail after the compile script was renamed, and which node version do the tests need?'

/** The instructions every benchmark build uses. */
export const INSTRUCTIONS = 'You are the build assistant. Answer from the evidence.'

/** The build clock: every generated history ends one minute before it. */
export const NOW = Date.parse('2026-01-01T12:00:00Z')
