// The module loader `npm run bench` runs the benchmark under (`node --import
// ./scripts/bench-loader.mjs bench/run.ts`): it compiles each TypeScript module on its own
// with esbuild, as the package's build compiles gssc (ES2022, names not kept), and finds the
// `.ts` file behind a relative `./x.js` import, as the sources write them. So the benchmark
// times the code a user runs from dist/, not gssc under tsx: tsx compiles with esbuild's
// keepNames, which defines `name` on every named closure as it is made, ~2 µs a closure
// (measured: ten named closures 20 µs, plain 0.4 µs), and a build makes dozens of them. Each
// module keeps its own path, so what a module finds from import.meta.url is what it finds
// from its source.
import { register } from 'node:module'

register('./bench-hooks.mjs', import.meta.url)
