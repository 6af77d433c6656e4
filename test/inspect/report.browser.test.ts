/**
 * The HTML report in a real browser: headless Debian Chromium driven by playwright-core.
 * Skipped, with a note, when no Chromium executable is installed (CI installs it).
 * Screenshots go to test-artifacts/ (kept as build artifacts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knowledgeBase, recall, retrieve } from '../../examples/memory-rag.js'
import { history as demoHistory, packets as demoPackets, system } from '../../examples/load.js'
import { renderReport } from '../../src/inspect/html/report.js'
import { build } from '../../src/pipeline.js'
import { toJson, type BuildResult } from '../../src/report.js'
import { gpt4o, NOW, run } from '../helpers.js'
import { openaiOutput, openaiSources } from './chatFixtures.js'
import { roomy, tight } from './fixtures.js'

const CHROMIUM = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => p !== undefined && p !== '' && existsSync(p))
if (CHROMIUM === undefined) console.warn('report.browser.test: no Chromium executable (set CHROMIUM_PATH or `apt-get install chromium`); skipping the browser tests')

const ARTIFACTS = join(process.cwd(), 'test-artifacts')
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** Writes a report and opens it, recording what the page asked for and every error it raised. */
const open = async (browser: Browser, name: string, result: BuildResult<unknown>, width = 1280) => {
  const file = join(ARTIFACTS, name)
  writeFileSync(file, renderReport(result))
  const page = await browser.newPage({ viewport: { width, height: 1000 } })
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (r) => requests.push(r.url()))
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.goto(pathToFileURL(file).href)
  return { page, requests, errors, url: pathToFileURL(file).href }
}

const visible = (page: Page, key: string): Promise<ReadonlyArray<string>> =>
  page.evaluate(`Array.from(document.querySelectorAll('#packets tbody tr:not([hidden]) td[data-key="${key}"]')).map((td) => td.getAttribute('data-v'))`)

describe.skipIf(CHROMIUM === undefined)('report in a browser', () => {
  let browser: Browser
  let result: BuildResult<string>
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    ;[browser, result] = await Promise.all([chromium.launch({ executablePath: CHROMIUM!, args: ARGS }), tight(400)])
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows totals equal to the JSON report, and the exact output as the context', async () => {
    const { page } = await open(browser, 'report.html', result)
    const j = toJson(result)
    const shown = async (key: string) => Number((await page.locator(`#totals dd[data-total="${key}"]`).innerText()).replace(/,/g, ''))
    expect(await shown('used')).toBe(j.tokenCount)
    expect(await shown('available')).toBe(j.budget.available)
    expect(await shown('reserved')).toBe(j.budget.reserved)
    expect(await shown('maxTokens')).toBe(j.budget.maxTokens)
    expect(await shown('free')).toBe(j.budget.available - j.tokenCount)
    expect(await shown('dropped')).toBe(j.packets.filter((p) => p.status === 'dropped').length + 1)
    expect(await page.evaluate(`JSON.parse(document.getElementById('gssc-report').textContent)`)).toEqual(JSON.parse(JSON.stringify(j)))
    expect(await page.locator('#context').textContent()).toBe(result.output)
    await page.close()
  })

  it('runs only its own script: the injected <script> packet shows as text and never runs', async () => {
    const { page, requests, errors, url } = await open(browser, 'report.html', await roomy())
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(await page.title()).toBe('gssc context report')
    expect(await page.locator('#context').textContent()).toContain('<script>window.__pwned = 1; document.title = "pwned"</script>')
    expect(await page.locator('#packets tbody tr[data-status] td[data-key="id"]').allTextContents()).toContain('evidence:<script>alert("id")</script>')
    // the page script ran (it fills the count) without errors, and nothing was fetched
    expect(await page.locator('#visible-count').textContent()).toMatch(/^\d+ of \d+$/)
    expect(errors).toEqual([])
    expect(requests).toEqual([url])
    await page.close()
  })

  it('would not run a script even if one escaped escaping: the CSP allows only the page script', async () => {
    const file = join(ARTIFACTS, 'report-injected.html')
    writeFileSync(file, renderReport(result).replace('</main>', '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"></main>'))
    const page = await browser.newPage()
    await page.goto(pathToFileURL(file).href)
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(await page.locator('#visible-count').textContent()).toMatch(/^\d+ of \d+$/)
    await page.close()
  })

  it('sorts the table by a column, both ways, with empty cells last', async () => {
    const { page } = await open(browser, 'report.html', result)
    const tokens = async () => (await visible(page, 'tokens')).map((v) => (v === '' ? undefined : Number(v)))
    await page.locator('th[data-key="tokens"] button').click()
    expect(await page.locator('th[data-key="tokens"]').getAttribute('aria-sort')).toBe('ascending')
    const up = await tokens()
    const counted = up.filter((v): v is number => v !== undefined)
    expect(counted.length).toBeGreaterThan(3)
    expect(counted).toEqual([...counted].sort((a, b) => a - b))
    expect(up.slice(counted.length).every((v) => v === undefined)).toBe(true)
    await page.locator('th[data-key="tokens"] button').click()
    const down = (await tokens()).filter((v): v is number => v !== undefined)
    expect(down).toEqual([...counted].sort((a, b) => b - a))
    await page.locator('th[data-key="id"] button').click()
    const ids = await visible(page, 'id')
    expect(ids).toEqual([...ids].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)))
    await page.close()
  })

  it('filters the table by status and by text', async () => {
    const { page } = await open(browser, 'report.html', result)
    const rows = toJson(result).packets
    const total = await page.locator('#packets tbody tr').count()
    await page.locator('#status-filter input[value="kept"]').uncheck()
    await page.locator('#status-filter input[value="truncated"]').uncheck()
    expect(new Set(await visible(page, 'status'))).toEqual(new Set(['dropped']))
    expect(await page.locator('#packets tbody tr:not([hidden])').count()).toBe(total - rows.filter((p) => p.status !== 'dropped').length)
    await page.locator('#text-filter').fill('history')
    const ids = await visible(page, 'id')
    expect(ids.length).toBeGreaterThan(0)
    expect(ids.every((id) => id.startsWith('history:'))).toBe(true)
    expect(await page.locator('#visible-count').textContent()).toBe(`${ids.length} of ${total}`)
    await page.locator('#status-filter input[value="kept"]').check()
    await page.locator('#text-filter').fill('BELOW_MIN')
    expect(await visible(page, 'id')).toEqual(rows.filter((p) => p.reason === 'below_min_relevance').map((p) => p.id))
    await page.close()
  })

  it('links the context to the packet rows, revealing a filtered-out row', async () => {
    const { page } = await open(browser, 'report.html', result)
    await page.locator('#status-filter input[value="kept"]').uncheck()
    const i = result.packets.findIndex((p) => p.id === 'task')
    expect(await page.locator(`#pkt-${i}`).isHidden()).toBe(true)
    await page.locator(`#ctx-${i}`).click()
    await expect.poll(() => page.locator(`#pkt-${i}`).isVisible()).toBe(true)
    expect(page.url().endsWith(`#pkt-${i}`)).toBe(true)
    await page.close()
  })

  it('shows a chat output as messages, tool results under their calls, scripts as text', async () => {
    const { page, errors } = await open(browser, 'report-chat.html', { ...(await roomy()), format: 'openai', output: openaiOutput, sources: openaiSources } as BuildResult<unknown>)
    expect(await page.locator('.chat .turn').count()).toBe(5)
    expect(await page.locator('.tool-call[data-call="call_1"] .tool-result').innerText()).toContain('npm ERR! Missing script: "compile"')
    expect(await page.locator('.tool-result.orphan').innerText()).toContain('<script>')
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    // the inline image decoded (the CSP allows data: images and nothing else)
    expect(await page.evaluate(`document.querySelector('.chat img.image').naturalWidth`)).toBe(1)
    expect(errors).toEqual([])
    await page.screenshot({ path: join(ARTIFACTS, 'report-chat.png'), fullPage: true })
    await page.close()
  })

  it('saves a screenshot of the report of the demo’s request', async () => {
    const demo = await run(
      build(
        { query: 'Why does the CI build fail with a missing compile script, and what should I run?', instructions: system(), history: demoHistory(), packets: demoPackets() },
        { tokenizer: gpt4o, now: NOW, config: { maxTokens: 600 }, rag: { retrieve: retrieve(knowledgeBase()), topK: 6 }, memory: { search: recall, limit: 3 } },
      ),
    )
    const { page, errors } = await open(browser, 'report-demo.html', demo)
    expect(errors).toEqual([])
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true })
    await page.setViewportSize({ width: 1100, height: 1500 })
    await page.screenshot({ path: join(ARTIFACTS, 'report-top.png') })
    expect(existsSync(join(ARTIFACTS, 'report.png'))).toBe(true)
    await page.close()
  })
})
