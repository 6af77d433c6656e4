/**
 * A core that runs anywhere: the core entry, the tokenizer and the renderers bundle for the
 * browser with esbuild (which refuses any `node:` import on that platform), and the bundle
 * runs an exact-count build in headless Chromium that agrees with Node token for token.
 * Skipped, with a note, when no Chromium executable is installed (CI installs it).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build as bundle } from 'esbuild'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build, openaiRenderer } from '../../src/index.js'
import { gpt4o, run } from '../helpers.js'

const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => p !== undefined && p !== '' && existsSync(p))
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const src = (p: string): string => fileURLToPath(new URL(`../../src/${p}`, import.meta.url))

/** The browser bundle of the platform-neutral entries, as one script defining `gssc`. */
const browserBundle = async (entries: ReadonlyArray<string>): Promise<string> => {
  const out = await bundle({
    stdin: { contents: entries.map((e, i) => `export * as e${i} from ${JSON.stringify(src(e))}`).join('\n'), resolveDir: src(''), loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'gssc',
    logLevel: 'silent',
  })
  return out.outputFiles[0]!.text
}

const REQUEST = {
  query: 'Why does the CI build fail?',
  instructions: 'You are the build assistant. 请用中文回答。',
  history: [
    { role: 'user' as const, content: 'The CI build fails since this morning.' },
    { role: 'assistant' as const, content: 'Which step fails? Please paste the error.' },
    { role: 'user' as const, content: 'npm ERR! Missing script: "compile"' },
  ],
  packets: [{ type: 'evidence' as const, content: 'The compile script was renamed to build in v2.', source: 'CHANGELOG.md' }],
}

describe('bundling for the browser', () => {
  it('bundles the core, tokenize and render entries with no Node module', async () => {
    const code = await browserBundle(['index.ts', 'tokenize/index.ts', 'render/index.ts'])
    expect(code).not.toMatch(/require\(["']node:/)
    expect(code.length).toBeGreaterThan(1_000_000) // the o200k and cl100k rank modules came along
  })

  it('refuses an entry that reads files (the check is real)', async () => {
    await expect(browserBundle(['node/index.ts'])).rejects.toThrow(/node:/)
  })
})

describe.skipIf(CHROMIUM === undefined)('the core in Chromium', () => {
  let browser: Browser
  let code: string
  beforeAll(async () => {
    ;[browser, code] = await Promise.all([chromium.launch({ executablePath: CHROMIUM!, args: ARGS }), browserBundle(['index.ts'])])
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('builds an exact-count context that equals the Node build, in text and in OpenAI messages', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.addScriptTag({ content: code })
    const inBrowser = (await page.evaluate(`(async () => {
      const g = gssc.e0
      const request = ${JSON.stringify(REQUEST)}
      const text = await g.build(request, { config: { maxTokens: 120 }, now: 0 })()
      const chat = await g.build(request, { config: { maxTokens: 120 }, now: 0, renderer: g.openaiRenderer() })()
      const count = g.encodingTokenizer('o200k_base').count(text.right.output)
      return { text: text.right, chat: chat.right, count, typeofProcess: typeof process }
    })()`)) as { text: { output: string; tokenCount: number }; chat: { output: unknown; tokenCount: number }; count: number; typeofProcess: string }
    expect(errors).toEqual([])
    expect(inBrowser.typeofProcess).toBe('undefined')
    const text = await run(build(REQUEST, { tokenizer: gpt4o, config: { maxTokens: 120 }, now: 0 }))
    const chat = await run(build(REQUEST, { tokenizer: gpt4o, config: { maxTokens: 120 }, now: 0, renderer: openaiRenderer() }))
    expect(inBrowser.text.output).toBe(text.output)
    expect(inBrowser.text.tokenCount).toBe(text.tokenCount)
    expect(inBrowser.count).toBe(text.tokenCount)
    expect(inBrowser.chat.output).toEqual(chat.output)
    expect(inBrowser.chat.tokenCount).toBe(chat.tokenCount)
    expect(text.tokenCount).toBeLessThanOrEqual(text.budget.available)
  })
})
