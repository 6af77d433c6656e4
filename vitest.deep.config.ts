import { defineConfig } from 'vitest/config'

// npm run test:deep: the property files only, with room for 10,000+ cases each
export default defineConfig({
  test: {
    include: ['test/**/*.test-prop.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
  },
})
