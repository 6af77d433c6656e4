// development entry: runs the CLI from source (the bin runs the compiled dist/)
import { readAll } from './io.js'
import { run } from './main.js'

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), stdin: () => readAll(process.stdin) })
