/**
 * nanobot HEAD leaves out workspace files its user never changed: AGENTS.md, USER.md and
 * memory/MEMORY.md are skipped when, stripped, they equal the templates nanobot's onboarding
 * copied in; a SOUL.md equal to the legacy template is replaced by the current one. gssc
 * compares SHA-256 digests of the stripped templates (commit 3852956a71a9), so it carries
 * only the one template it has to print: the current SOUL.md (nanobot is MIT licensed,
 * "Copyright (c) 2025-present Xubin Ren and the nanobot contributors").
 *
 * @module
 */
import { createHash } from 'node:crypto'
import { pyStrip } from './python.js'

/** Digests of nanobot HEAD's stripped templates, by workspace path. */
const TEMPLATE_DIGESTS: Readonly<Record<string, string>> = {
  'AGENTS.md': 'b5d3a9f71da9ae2f28a431ed3edb32a622b56d9b7501aa8ae75dad87ea692dfd',
  'USER.md': '4a69b5be617ad5a182d7411d76e3c42ed6483e3c737308f481d64c6e3ccc89c1',
  'memory/MEMORY.md': 'd22710640c228b702c0d8d36196040ed56a734c13ca69afd14cb5888c894bb76',
  'legacy/SOUL.md': '34cb8ffca9dcb097be57e03b39a1570b9adecd3f4c2101720fe9827b62e1b1d9',
}

/** nanobot HEAD's SOUL.md template, which replaces a legacy SOUL.md. */
export const HEAD_SOUL_TEMPLATE = [
  '# Soul',
  '',
  'I am nanobot 🐈, a personal AI assistant.',
  '',
  '## Core Principles',
  '',
  '- Solve by doing, not by describing what I would do.',
  '- Keep responses short unless depth is asked for.',
  "- Say what I know, flag what I don't, and never fake confidence.",
  "- Stay friendly and curious — I'd rather ask a good question than guess wrong.",
  "- Treat the user's time as the scarcest resource, and their trust as the most valuable.",
  '',
].join('\n')

/**
 * True when `content`, stripped as Python strips, equals nanobot HEAD's template `name`
 * (`AGENTS.md`, `USER.md`, `memory/MEMORY.md` or `legacy/SOUL.md`).
 *
 * @example
 * isHeadTemplate('AGENTS.md', '# My own rules\n') // false
 * @category utils
 */
export const isHeadTemplate = (name: string, content: string): boolean => {
  const digest = TEMPLATE_DIGESTS[name]
  return digest !== undefined && createHash('sha256').update(pyStrip(content), 'utf8').digest('hex') === digest
}
