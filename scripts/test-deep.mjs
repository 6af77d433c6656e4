#!/usr/bin/env node
// npm run test:deep: every property with at least 10,000 cases on a fresh seed (or GSSC_SEED).
// The seed is printed first and again at the end, so any failure can be replayed exactly.
import { spawnSync } from 'node:child_process'

const seed = process.env.GSSC_SEED || String((Math.random() * 2 ** 31) | 0)
console.log(`deep property run: seed ${seed} (replay: GSSC_SEED=${seed} npm run test:deep)`)
const started = Date.now()
const args = ['vitest', 'run', '--config', 'vitest.deep.config.ts', ...process.argv.slice(2)]
const r = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, GSSC_DEEP: '1', GSSC_SEED: seed } })
console.log(`deep property run: seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${r.status}`)
process.exit(r.status ?? 1)
