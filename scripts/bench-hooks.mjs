// The hooks of scripts/bench-loader.mjs (which says why): run on Node's loader thread.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/** A relative `.js` import from a TypeScript module names the `.ts` file beside it. */
export const resolve = async (specifier, context, next) => {
  if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL)
    if (!existsSync(new URL(specifier, context.parentURL)) && existsSync(ts)) return { url: ts.href, format: 'module', shortCircuit: true }
  }
  return next(specifier, context)
}

let esbuild
/** A TypeScript module, compiled on its own (type imports dropped, nothing bundled). */
export const load = async (url, context, next) => {
  if (!url.endsWith('.ts')) return next(url, context)
  esbuild ??= await import('esbuild')
  const source = await readFile(fileURLToPath(url), 'utf8')
  const { code } = await esbuild.transform(source, { loader: 'ts', format: 'esm', target: 'es2022', keepNames: false, sourcefile: fileURLToPath(url) })
  return { format: 'module', source: code, shortCircuit: true }
}
