// The API reference (`npm run docs`, into the gitignored api-docs/): one entry point per
// subpath export of package.json, so a new export is documented without editing this file.
// Warnings are errors: a broken {@link} or an exported type that refers to a type the package
// does not export fails `npm run docs` and test/docs/typedoc.test.ts.
import { readFileSync } from 'node:fs'

const { exports } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

/** `.` → src/index.ts, `./render` → src/render/index.ts; `./package.json` is not code. */
const entryPoints = Object.keys(exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'src/index.ts' : `src/${key.slice(2)}/index.ts`))

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'gssc',
  entryPoints,
  tsconfig: 'tsconfig.build.json',
  out: 'api-docs',
  readme: 'none',
  disableSources: true,
  excludePrivate: true,
  excludeInternal: true,
  validation: { notExported: true, invalidLink: true, notDocumented: false },
  treatWarningsAsErrors: true,
}
