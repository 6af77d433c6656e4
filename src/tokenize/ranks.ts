/**
 * Where an encoding's rank tables come from: js-tiktoken's rank files, loaded as ES modules
 * (`import('js-tiktoken/ranks/o200k_base')`), so a bundler follows them into a browser or
 * edge build, and never from the network.
 *
 * Loading is asynchronous and lazy: `build`, `fitMessages` and {@link loadEncoding} await it
 * before the first count, and importing gssc costs nothing for tables it never uses (the
 * o200k module alone takes ~70 ms to parse). Counting stays synchronous: a tokenizer reads
 * the loaded table. On Node a tokenizer used before any load reads the rank module
 * synchronously through Node's own module loader (reached through `process`, so nothing here
 * imports a `node:` module and bundles stay clean); elsewhere that is a programmer error
 * that says to `await loadEncoding(...)` first.
 *
 * @module
 */
import type { TiktokenBPE } from 'js-tiktoken/lite'
import type { EncodingName } from './bpe.js'

/** js-tiktoken's rank data: the compressed ranks and the pre-tokenizer pattern. */
export type Ranks = TiktokenBPE

// One literal import per encoding, so bundlers see (and include) each module.
const importers: { readonly [E in EncodingName]: () => Promise<{ readonly default: Ranks }> } = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
}

/**
 * The loaded tables, once per process. A documented read-only memo (see CONVENTIONS.md): the
 * rank data never changes once loaded, so sharing it cannot change a result.
 */
const loaded = new Map<EncodingName, Ranks>()

/**
 * Loads an encoding's ranks (once per process) so that tokenizers of it count synchronously
 * anywhere, browsers included.
 *
 * @example
 * await loadEncoding('o200k_base')
 * encodingTokenizer('o200k_base').count('hello') // 1
 * @category loading
 * @since 0.2.0
 */
export const loadEncoding = async (encoding: EncodingName): Promise<Ranks> => {
  const known = loaded.get(encoding)
  if (known !== undefined) return known
  const ranks = (await importers[encoding]()).default
  loaded.set(encoding, ranks)
  return ranks
}

/**
 * An encoding's ranks, now: the loaded table, or on Node the module read synchronously.
 * Throws (a programmer error) where neither is possible.
 *
 * @category loading
 * @since 0.1.0
 */
export const loadRanks = (encoding: EncodingName): Ranks => {
  const known = loaded.get(encoding)
  if (known !== undefined) return known
  const sync = nodeRequire()
  if (sync === undefined)
    throw new Error(`the ${encoding} ranks are not loaded: await loadEncoding('${encoding}') (or build / fitMessages, which load them) before counting synchronously`)
  const ranks = sync(`js-tiktoken/ranks/${encoding}`) as Ranks
  loaded.set(encoding, ranks)
  return ranks
}

/** Whether an encoding's ranks are loaded (a count will not read a module). @category loading */
export const isLoaded = (encoding: EncodingName): boolean => loaded.has(encoding)

interface NodeProcess {
  readonly getBuiltinModule?: (id: string) => { readonly createRequire: (url: string) => (id: string) => unknown } | undefined
}

/**
 * Node's synchronous module loader, when running on Node (20.16 and later), found without
 * importing a `node:` module, so the core still bundles for browsers. Also loads the code
 * compressor's optional `typescript` peer.
 *
 * @category loading
 */
export const nodeRequire = (): ((id: string) => unknown) | undefined => {
  const p = (globalThis as { readonly process?: NodeProcess }).process
  return p?.getBuiltinModule?.('module')?.createRequire(import.meta.url)
}
