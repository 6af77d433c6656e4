// What `npm run build` ships besides tsc's declarations (`node scripts/bundle.mjs [dist]`):
//
// - the library: one ES module per entry point of package.json's `exports` (dist/index.js,
//   dist/tokenize/index.js, …), code shared by entries in dist/lib/. Node then reads 7 files
//   on `import 'gssc'` instead of resolving and compiling ~160 modules (fp-ts's CommonJS
//   among them). esbuild bundles; rollup then groups esbuild's chunks (see `chunkFor`): by
//   which small entries (tokenize, render, adapters, inspect) run them, so those load only
//   what they share, and what only the root and the large entries run in two chunks. Before,
//   rollup merged by size (`experimentalMinChunkSize`) and the root loaded 8 files, 266 kB:
//   import('gssc') took 60.0 / 62.7 ms (median of 15 interleaved child processes, two runs),
//   51.7 / 52.9 ms now (7 files, 255 kB); tokenize 47 → 40 kB, render 60 → 50 kB, adapters
//   107 → 92 kB, inspect 89 → 73 kB, same file counts; gssc/workspace 193 → 210 kB, 6 → 8
//   files. fp-ts, ts-pattern, jsonc-parser and js-tiktoken's engine are bundled (ES
//   module builds, tree-shaken, no platform-specific code); the other dependencies stay
//   imports, so a user's bundler picks their browser or Node builds, and js-tiktoken's rank
//   modules stay lazily loaded files. Every chunk is minified, local names included (see
//   `minified`: importing the root is mostly parsing).
// - the packed rank tables, dist/ranks/<encoding>.bin (src/tokenize/rankFile.ts): on Node the
//   first count reads the pages of one file it needs instead of parsing, decoding and hashing
//   js-tiktoken's ranks.
// - the CLI as its own bundle, dist/cli/bundle/ (esbuild, then rollup merges small chunks), run
//   by bin/gssc.mjs: each command's code is a chunk loaded only when that command runs.
import { build, transform } from 'esbuild'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rollup } from 'rollup'

// the dist folder may be given (the package test stages a build elsewhere)
const dist = process.argv[2] ?? 'dist'
const pkg = JSON.parse(readFileSync('package.json', 'utf8'))

// -------------------------------------------------------------------------------------
// library
// -------------------------------------------------------------------------------------

/** `./dist/tokenize/index.js` → `tokenize/index` (the entry's name) and its source file. */
const entries = Object.fromEntries(
  Object.values(pkg.exports)
    .flatMap((e) => (typeof e === 'object' && typeof e.default === 'string' ? [e.default] : []))
    .map((out) => {
      const name = out.replace(/^\.\/dist\//, '').replace(/\.js$/, '')
      return [name, `src/${name}.ts`]
    }),
)

/** fp-ts's ES module build, so bundles tree-shake it (sources import `fp-ts/lib/*.js`, which Node needs). */
const fpTsEs6 = {
  name: 'fp-ts-es6',
  setup: (b) => b.onResolve({ filter: /^fp-ts\/lib\// }, (args) => b.resolve(args.path.replace(/^fp-ts\/lib\//, 'fp-ts/es6/'), { kind: args.kind, resolveDir: args.resolveDir })),
}

/**
 * Every output chunk minified, local names included. Importing the root entry is mostly V8
 * parsing ~450 kB (Node 20 has no module compile cache), and the pre-parser's cost follows
 * the identifiers it meets more than the bytes. Measured on this build (Node 20, callgrind,
 * instructions of `import('gssc')` over bare node's): as built before, 146M; whitespace and
 * syntax minified, 146M; locals renamed too, 130M. Exported names stay (they are the API);
 * nothing in gssc reads a function's `name`.
 */
const minified = {
  name: 'minify',
  renderChunk: async (code) => ({ code: (await transform(code, { format: 'esm', target: 'es2022', minify: true })).code, map: null }),
}

/**
 * Which chunk a module of esbuild's split output goes to, by the entries that import it
 * (statically, directly or not). The small entries (gssc/tokenize, gssc/render,
 * gssc/adapters, gssc/inspect: browser and edge code) decide: code one of them runs goes to
 * a chunk named for what they share (`core`: tokenize and another small entry; `tokens`:
 * tokenize only; `render`: render or inspect; `adapters`), so each loads no more than before;
 * code only the root and the large entries run goes to two chunks (`shared` with
 * gssc/workspace, gssc/chunks and gssc/conversation, `root` otherwise). The root then loads 7
 * modules where rollup's size-based merging gave 8 of 266 kB with code it does not run.
 * Each module is in exactly one chunk (the tokenizer's rank cache exists once when an app
 * imports both `gssc` and `gssc/tokenize`).
 */
const chunkFor = (staged) => {
  const entryName = new Map(Object.keys(entries).map((name) => [join(staged, `${name}.js`), name]))
  let reach
  const reachOf = (getModuleInfo) => {
    reach = new Map()
    for (const [id, name] of entryName) {
      const todo = [id]
      while (todo.length > 0) {
        const m = todo.pop()
        const seen = reach.get(m) ?? new Set()
        if (seen.has(name)) continue
        reach.set(m, seen.add(name))
        todo.push(...(getModuleInfo(m)?.importedIds ?? []))
      }
    }
    return reach
  }
  return (id, { getModuleInfo }) => {
    if (entryName.has(id)) return undefined
    const by = (reach ?? reachOf(getModuleInfo)).get(id) ?? new Set()
    const small = ['tokenize/index', 'render/index', 'adapters/index', 'inspect/index'].filter((e) => by.has(e))
    if (small.includes('tokenize/index')) return small.length > 1 ? 'core' : 'tokens'
    if (small.includes('render/index') || small.includes('inspect/index')) return 'render'
    if (small.includes('adapters/index')) return 'adapters'
    if (!by.has('index')) return undefined
    return ['workspace/index', 'chunks/index', 'conversation/index'].some((e) => by.has(e)) ? 'shared' : 'root'
  }
}

const BUNDLED = new Set(['fp-ts', 'ts-pattern', 'jsonc-parser', 'js-tiktoken'])
const imported = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})].filter((d) => !BUNDLED.has(d))

const staged = mkdtempSync(join(tmpdir(), 'gssc-bundle-'))
try {
  await build({
    entryPoints: entries,
    outdir: staged,
    bundle: true,
    splitting: true,
    format: 'esm',
    // neutral: no Node shims; the core entries must stay loadable by browser bundlers
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    // js-tiktoken's engine (`js-tiktoken/lite`, a few kB) is bundled, its rank modules are not
    external: ['node:*', 'js-tiktoken/ranks/*', ...imported.flatMap((d) => [d, `${d}/*`])],
    plugins: [fpTsEs6],
    logLevel: 'warning',
  })
  const merged = await rollup({
    input: Object.fromEntries(Object.keys(entries).map((name) => [name, join(staged, `${name}.js`)])),
    // what esbuild left as imports stays imports
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id),
    onLog: (level, log, handler) => (level === 'warn' ? handler('error', log) : undefined),
    plugins: [minified],
  })
  rmSync(join(dist, 'lib'), { recursive: true, force: true })
  await merged.write({ dir: dist, format: 'es', chunkFileNames: 'lib/[name]-[hash].js', manualChunks: chunkFor(staged), experimentalMinChunkSize: 100_000 })
  await merged.close()
} finally {
  rmSync(staged, { recursive: true, force: true })
}

// -------------------------------------------------------------------------------------
// rank files
// -------------------------------------------------------------------------------------

// the packer is TypeScript: bundled in memory and loaded from a data URL
const packer = await build({
  stdin: {
    contents: [
      `import { decodeRanks } from './src/tokenize/decodeRanks.ts'`,
      `import { rankTable } from './src/tokenize/rankTable.ts'`,
      `import { packRanks } from './src/tokenize/rankFile.ts'`,
      `export const pack = (ranks) => { const d = decodeRanks(ranks.bpe_ranks); return packRanks(d, rankTable(d), ranks.pat_str) }`,
    ].join('\n'),
    resolveDir: '.',
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  plugins: [fpTsEs6],
  logLevel: 'warning',
})
const { pack } = await import(`data:text/javascript;base64,${Buffer.from(packer.outputFiles[0].text).toString('base64')}`)
mkdirSync(join(dist, 'ranks'), { recursive: true })
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const ranks = (await import(`js-tiktoken/ranks/${encoding}`)).default
  // written beside, then renamed over: a running process reads its open file page by page
  // (src/tokenize/rankPages.ts), and a rename leaves that file as it was
  const file = join(dist, 'ranks', `${encoding}.bin`)
  writeFileSync(`${file}.tmp`, pack(ranks))
  renameSync(`${file}.tmp`, file)
}

// -------------------------------------------------------------------------------------
// CLI
// -------------------------------------------------------------------------------------

const cli = join(dist, 'cli', 'bundle')
rmSync(cli, { recursive: true, force: true })
const cliStaged = mkdtempSync(join(tmpdir(), 'gssc-cli-'))
try {
  await build({
    // the batch worker is an entry of its own: tinypool loads it by file, next to the chunks
    entryPoints: { gssc: 'src/cli/bin.ts', batchWorker: 'src/cli/batchWorker.ts' },
    outdir: cliStaged,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // ES module builds first: jsonc-parser's UMD build requires its parts at run time
    mainFields: ['module', 'main'],
    target: 'node20',
    // optional peers stay the user's own installs
    // (and tinypool, which starts its workers from its own files; and js-tiktoken, whose rank
    // modules are needed only where dist/ranks/ is not)
    external: ['typescript', '@huggingface/tokenizers', '@lenml/*', 'tinypool', 'js-tiktoken/ranks/*'],
    plugins: [fpTsEs6],
    // ESM output with CommonJS dependencies (commander, js-tiktoken ranks) needs a require
    banner: { js: "import { createRequire as __gsscRequire } from 'node:module'; const require = __gsscRequire(import.meta.url);" },
    logLevel: 'warning',
  })
  // rollup merges esbuild's small chunks, as for the library: `gssc build` loaded 34 modules,
  // and each costs Node's ES module loader about as much as parsing 10 kB (9 modules after;
  // 920M → 840M instructions for a small build under callgrind, 503M for bare node);
  // commands stay chunks loaded when they run
  const merged = await rollup({
    input: { gssc: join(cliStaged, 'gssc.js'), batchWorker: join(cliStaged, 'batchWorker.js') },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(id),
    onLog: (level, log, handler) => (level === 'warn' ? handler('error', log) : undefined),
    plugins: [minified],
  })
  await merged.write({ dir: cli, format: 'es', chunkFileNames: '[name]-[hash].js', experimentalMinChunkSize: 100_000 })
  await merged.close()
} finally {
  rmSync(cliStaged, { recursive: true, force: true })
}
