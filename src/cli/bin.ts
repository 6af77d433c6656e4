/**
 * The command's entry point, as `bin/gssc.mjs` runs it (bundled by `scripts/bundle-cli.mjs`,
 * so a command loads only its own code).
 *
 * @module
 */
import { readAll } from './io.js'
import { run } from './main.js'

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdin: () => readAll(process.stdin),
})
