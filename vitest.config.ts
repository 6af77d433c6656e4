import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// `gssc` and `gssc/<entry>` resolve to the sources (as tsconfig's `paths` do for tsc and tsx),
// so examples and samples import the package by its own name and run without a build.
const src = (p: string): string => fileURLToPath(new URL(`./src/${p}`, import.meta.url))
export const alias = [
  { find: /^gssc$/, replacement: src('index.ts') },
  { find: /^gssc\/(.+)$/, replacement: src('$1/index.ts') },
]

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test-prop.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
