/**
 * Skill requirements: commands on `PATH` and non-empty environment variables. Both lookups
 * are injected so tests (and sandboxes) decide what "installed" means.
 *
 * @module
 */
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import type { Requirements } from './model.js'

/** The machine a skill would run on. */
export interface Host {
  /** Environment variables; `requires.env` names must be set and non-empty here. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Whether a command is installed; the default searches `env.PATH`. */
  readonly hasCommand: (name: string) => Promise<boolean>
}

/**
 * A host that looks commands up on `env.PATH` (and, on Windows, with the `PATHEXT`
 * extensions). A name with a path separator is never "on PATH". `platform` is a plain string
 * (not `NodeJS.Platform`) so that the published types need no `@types/node`.
 *
 * @example
 * const host = pathHost({ PATH: '/usr/bin', GITHUB_TOKEN: 'x' })
 * await host.hasCommand('ls') // true on most systems
 * @category constructors
 */
export const pathHost = (env: Readonly<Record<string, string | undefined>>, platform: string = process.platform): Host => ({
  env,
  hasCommand: async (name) => {
    if (name.length === 0 || /[/\\]/.test(name)) return false
    const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter).filter((d) => d.length > 0)
    const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : ['']
    for (const dir of dirs) for (const ext of exts) if (await isExecutable(join(dir, name + ext))) return true
    return false
  },
})

const isExecutable = async (path: string): Promise<boolean> => {
  try {
    await access(path, constants.X_OK)
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

/**
 * The requirements a host does not meet.
 *
 * @example
 * await missingOn(host, { bins: ['gh'], env: ['GITHUB_TOKEN'] }) // { bins: ['gh'], env: [] }
 * @category utils
 */
export const missingOn = async (host: Host, requires: Requirements): Promise<Requirements> => {
  const bins: string[] = []
  for (const bin of requires.bins) if (!(await host.hasCommand(bin))) bins.push(bin)
  const env = requires.env.filter((name) => (host.env[name] ?? '') === '')
  return { bins, env }
}

/**
 * nanobot's text for missing requirements, as it appears in the skills summary.
 *
 * @example
 * describeMissing({ bins: ['gh'], env: ['GITHUB_TOKEN'] }) // 'CLI: gh, ENV: GITHUB_TOKEN'
 * @category utils
 */
export const describeMissing = (missing: Requirements): string =>
  [...missing.bins.map((b) => `CLI: ${b}`), ...missing.env.map((e) => `ENV: ${e}`)].join(', ')
