/**
 * nanobot HEAD leaves out workspace files its user never changed: AGENTS.md, USER.md and
 * memory/MEMORY.md are skipped when, stripped, they equal the templates nanobot's onboarding
 * copied in; a SOUL.md equal to the legacy template is replaced by the current one. gssc
 * compares the length and a 64-bit FNV-1a digest of the stripped templates (commit
 * 3852956a71a9; no node:crypto, so the prompt builds on any platform), and carries only the
 * one template it has to print: the current SOUL.md (nanobot is MIT licensed, "Copyright
 * (c) 2025-present Xubin Ren and the nanobot contributors").
 *
 * @module
 */
import { pyStrip } from './python.js'

/** Fingerprints of nanobot HEAD's stripped templates, by path. */
const TEMPLATE_DIGESTS: Readonly<Record<string, string>> = {
  'AGENTS.md': '1940:13730d2d65b3d259',
  'USER.md': '841:0f215812057be528',
  'memory/MEMORY.md': '407:c5eae51788ce756f',
  'legacy/SOUL.md': '804:17807673680657ff',
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
  return digest !== undefined && fingerprint(pyStrip(content)) === digest
}

const FNV_OFFSET = 0xcbf29ce484222325n
const FNV_PRIME = 0x100000001b3n
const MASK = (1n << 64n) - 1n

/** `<UTF-8 length>:<FNV-1a 64 in hex>`: not a cryptographic hash, just "is it the unchanged template". */
export const fingerprint = (text: string): string => {
  const bytes = new TextEncoder().encode(text)
  let h = FNV_OFFSET
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK
  return `${bytes.length}:${h.toString(16).padStart(16, '0')}`
}
