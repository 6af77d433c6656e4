import { defineConfig } from 'vitest/config'
import { alias } from './vitest.config.js'

// npm run test:deep: the property files, plus the two test files that hold properties beside
// example tests (open-weight tokenizers, calibration), with room for 10,000+ cases each
export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test-prop.ts', 'test/tokenize/openWeights.test.ts', 'test/tokenize/calibrate.test.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
  },
})
