/**
 * How each nanobot version reads a SKILL.md, so a skill is described, required and switched
 * on exactly as that version does it:
 *
 * - 0.1.3 / 0.1.4 split the frontmatter into `key: value` lines by hand (quotes stripped,
 *   nesting ignored); `metadata` must be JSON on one line; `always` is on when its text is
 *   not empty (so `always: false` is on too, as in nanobot).
 * - HEAD parses the frontmatter as YAML 1.1 (PyYAML's dialect: `yes`/`no` are booleans);
 *   `metadata` may be a mapping or a JSON string; requirement lists keep only non-blank
 *   strings.
 *
 * The active-skill body is the text after the frontmatter, stripped, as that version cuts it.
 *
 * @module
 */
import { parse } from 'yaml'
import { isRecord, MAX_ALIASES } from './frontmatter.js'
import type { Requirements } from './model.js'
import { pyStrip, pyTruthy } from './python.js'
import type { NanobotVersion } from './version.js'

/** A skill as one nanobot version sees it (before its requirements are checked). */
export interface SkillReading {
  readonly description: string
  readonly always: boolean
  readonly requires: Requirements
  /** The body nanobot puts under `### Skill: <name>`. */
  readonly body: string
  /** True when the frontmatter has a `metadata` field this version cannot read (it then ignores it). */
  readonly metadataIgnored: boolean
}

/**
 * `text` (a SKILL.md) read by `version`'s rules; `dir` is the skill's folder name.
 *
 * @example
 * readSkillAs('0.1.4', 'memory', '---\nname: memory\nalways: true\n---\n\n# Memory\n')
 * // { metadataIgnored: false, description: 'memory', always: true, requires: { bins: [], env: [] }, body: '# Memory' }
 * @category utils
 */
export const readSkillAs = (version: NanobotVersion, dir: string, text: string): SkillReading =>
  version === 'HEAD' ? readHead(dir, text) : readLegacy(version, dir, text)

const LEGACY_META = /^---\n([\s\S]*?)\n---/
const LEGACY_FENCE = /^---\n[\s\S]*?\n---\n/

const readLegacy = (version: '0.1.3' | '0.1.4', dir: string, text: string): SkillReading => {
  const meta = text.startsWith('---') ? legacyMeta(text) : undefined
  const description = meta?.['description']
  const data = jsonObject(meta?.['metadata'] ?? '')
  const own = agentMeta(data ?? {}, version === '0.1.4')
  const fence = text.startsWith('---') ? LEGACY_FENCE.exec(text) : null
  return {
    metadataIgnored: meta?.['metadata'] !== undefined && data === undefined,
    description: description === undefined || description === '' ? dir : description,
    always: pyTruthy(own['always']) || pyTruthy(meta?.['always']),
    requires: requirements(own['requires'], (v) => typeof v === 'string'),
    body: fence === null ? text : pyStrip(text.slice(fence[0].length)),
  }
}

/** nanobot 0.1.x's frontmatter: each line with a `:` is a key and a value, quotes stripped. */
const legacyMeta = (text: string): Readonly<Record<string, string>> | undefined => {
  const m = LEGACY_META.exec(text)
  if (m === null) return undefined
  const out: Record<string, string> = {}
  for (const line of m[1]!.split('\n')) {
    const colon = line.indexOf(':')
    if (colon < 0) continue
    out[pyStrip(line.slice(0, colon))] = pyStrip(pyStrip(line.slice(colon + 1)), '"\'')
  }
  return out
}

// Python's `\s` in a str pattern is Unicode whitespace, as JavaScript's is
const HEAD_FENCE = /^---\s*\r?\n([\s\S]*?)\r?\n---\s*\r?\n?/

const readHead = (dir: string, text: string): SkillReading => {
  const fence = HEAD_FENCE.exec(text)
  const meta = fence === null ? undefined : yaml11(fence[1]!)
  const description = meta?.['description']
  const raw = meta?.['metadata']
  const data = isRecord(raw) ? raw : typeof raw === 'string' ? jsonObject(raw) : undefined
  const own = agentMeta(data ?? {}, true)
  return {
    metadataIgnored: raw !== undefined && raw !== null && data === undefined,
    description: typeof description === 'string' && description !== '' ? description : dir,
    always: meta !== undefined && Object.keys(meta).length > 0 && (pyTruthy(own['always']) || pyTruthy(meta['always'])),
    requires: requirements(own['requires'] ?? {}, (v) => typeof v === 'string' && pyStrip(v) !== ''),
    body: text.startsWith('---') && fence !== null ? pyStrip(text.slice(fence[0].length)) : text,
  }
}

/** PyYAML's `safe_load` of a frontmatter: a mapping, or `undefined` when it is not one. */
const yaml11 = (source: string): Readonly<Record<string, unknown>> | undefined => {
  try {
    const data: unknown = parse(source, { version: '1.1', maxAliasCount: MAX_ALIASES })
    return isRecord(data) ? data : undefined
  } catch {
    return undefined
  }
}

/** A JSON object, or `undefined` when the text is not one. */
const jsonObject = (raw: string): Readonly<Record<string, unknown>> | undefined => {
  try {
    const data: unknown = JSON.parse(raw)
    return isRecord(data) ? data : undefined
  } catch {
    return undefined
  }
}

/** The `nanobot` key of the metadata, else (0.1.4 and later) the `openclaw` one. */
const agentMeta = (data: Readonly<Record<string, unknown>>, openclaw: boolean): Readonly<Record<string, unknown>> => {
  const own = 'nanobot' in data ? data['nanobot'] : openclaw ? data['openclaw'] : undefined
  return isRecord(own) ? own : {}
}

const requirements = (requires: unknown, keep: (v: unknown) => boolean): Requirements => {
  if (!isRecord(requires)) return { bins: [], env: [] }
  const list = (v: unknown): ReadonlyArray<string> => (Array.isArray(v) ? (v.filter(keep) as string[]) : [])
  return { bins: list(requires['bins']), env: list(requires['env']) }
}
