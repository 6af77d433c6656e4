import { defineConfig } from 'vitest/config'
import { alias } from './vitest.config.js'

// npm run test:deep: the property files only, with room for 10,000+ cases each
export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test-prop.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
  },
})
