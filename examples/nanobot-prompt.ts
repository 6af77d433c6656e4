/**
 * A workspace's system prompt as nanobot v0.1.4 itself builds it: same clock, zone label,
 * runtime line and files give the same bytes. Run: npx tsx examples/nanobot-prompt.ts
 */
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { createTokenizer, loadEncoding } from 'gssc'
import { loadWorkspace } from 'gssc/node'
import { buildSystemPrompt } from 'gssc/workspace'
import { isMain } from './load.js'

export const main = async (): Promise<string> => {
  await loadEncoding('o200k_base')
  const tokenizer = E.getOrElseW(() => {
    throw new Error('unknown model')
  })(createTokenizer('gpt-4o'))

  const ws = await loadWorkspace(fileURLToPath(new URL('./workspace', import.meta.url)), {
    nanobotVersion: '0.1.4',
    now: () => new Date('2026-03-14T01:30:00Z'), // 09:30 in Shanghai
    timeZone: 'Asia/Shanghai',
    timeZoneLabel: 'CST', // what Python's time.strftime("%Z") printed there
    host: { env: {}, hasCommand: async (name) => name === 'curl' }, // gh is not installed
  })()
  if (E.isLeft(ws)) throw new Error(ws.left.message)
  const built = buildSystemPrompt(ws.right, { tokenizer, runtime: 'Linux x86_64, Python 3.11.7' })
  if (E.isLeft(built)) throw new Error(built.left.message)

  const { prompt, parts } = built.right
  const head = prompt.split('\n').slice(0, 14).join('\n').replaceAll(ws.right.root, '<workspace>')
  const notShown = parts.filter((p) => p.dropped).map((p) => `- ${p.file ?? p.name}: ${p.reason} (${p.detail})`)
  return [head, '…', '', 'Not in the prompt:', ...notShown].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
