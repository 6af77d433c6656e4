#!/usr/bin/env node
// The CLI ships compiled and bundled (npm's `prepare` runs `npm run build`: tsc, then
// scripts/bundle-cli.mjs); src/ is the source of truth.
import '../dist/cli/bundle/gssc.js'
