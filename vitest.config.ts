import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test-prop.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
