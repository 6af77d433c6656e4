#!/usr/bin/env node
// The CLI ships compiled (npm's `prepare` builds dist/ on install); src/ is the source of truth.
import { readAll } from '../dist/cli/io.js'
import { run } from '../dist/cli/main.js'

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin: () => readAll(process.stdin),
})
