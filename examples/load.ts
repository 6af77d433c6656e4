/** Loads the shipped example data (examples/data). */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PacketInput, SimpleMessage } from 'gssc'

const data = (name: string): string => readFileSync(fileURLToPath(new URL(`./data/${name}`, import.meta.url)), 'utf8')
const lines = (name: string): unknown[] => data(name).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))

export const system = (): string => data('system.md').trim()
export const history = (): SimpleMessage[] => lines('history.jsonl') as SimpleMessage[]
export const packets = (): PacketInput[] => lines('packets.jsonl') as PacketInput[]
export const kb = (): Array<{ id: string; title: string; body: string }> => JSON.parse(data('kb.json'))
export const memories = (): Array<{ content: string; kind: 'evidence' | 'task_state' }> => JSON.parse(data('memory.json'))

/** The examples' clock: the data was recorded around 2026-01-01 12:00 UTC. */
export const NOW = Date.parse('2026-01-01T12:00:00Z')

/** True when the file is run directly (`npx tsx examples/x.ts`), not imported by a test. */
export const isMain = (url: string): boolean => process.argv[1] !== undefined && fileURLToPath(url) === process.argv[1]
