/**
 * Keeping every read inside the workspace. A path is checked twice: lexically (so `../` and
 * absolute paths are refused before the disk is touched) and after `realpath` (so a symlink
 * that points out of the workspace is refused too). The prefix check includes the path
 * separator, so `/ws-evil` is not inside `/ws`.
 *
 * @module
 */
import { realpath } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { inputError, type InputError } from '../error.js'

/**
 * True when `path` is `root` or lies under it. Both must be absolute and normalised.
 *
 * @example
 * isInside('/ws', '/ws/memory/MEMORY.md') // true
 * isInside('/ws', '/ws-evil/x')           // false
 * @category utils
 */
export const isInside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/**
 * The absolute path of `rel` under `root`, refused when it is absolute or climbs out with
 * `..`. `input` names the value in the error (e.g. `skill "../x"`).
 *
 * @example
 * resolveLexical('/ws', 'skills/a/SKILL.md', 'skill') // Right('/ws/skills/a/SKILL.md')
 * resolveLexical('/ws', '../etc/passwd', 'skill')     // Left(skill: "../etc/passwd" is outside the workspace /ws)
 * @category utils
 */
export const resolveLexical = (root: string, rel: string, input: string): E.Either<InputError, string> => {
  const abs = resolve(root, rel)
  return isAbsolute(rel) || !isInside(root, abs)
    ? E.left(inputError(input, `${JSON.stringify(rel)} is outside the workspace ${root}`))
    : E.right(abs)
}

/** What `realInside` found at a path. */
export type Located = { readonly _tag: 'Missing' } | { readonly _tag: 'Found'; readonly path: string }

/**
 * The symlink-free path of `abs`, checked to be inside `root` (itself symlink-free).
 * Nothing there is `Missing`, not an error; a dangling symlink is `Missing` too. `rootName`
 * names the root in the error (default "the workspace").
 *
 * @category utils
 */
export const realInside = async (root: string, abs: string, input: string, rootName = 'the workspace'): Promise<E.Either<InputError, Located>> => {
  try {
    const real = await realpath(abs)
    return isInside(root, real)
      ? E.right({ _tag: 'Found', path: real })
      : E.left(inputError(input, `resolves to ${real}, outside ${rootName} ${root} (a symlink leaves ${rootName})`))
  } catch (e) {
    return fsCode(e) === 'ENOENT' || fsCode(e) === 'ENOTDIR'
      ? E.right({ _tag: 'Missing' })
      : E.left(inputError(input, describeFsError(e)))
  }
}

/** The path relative to `root`, with `/` separators whatever the platform. */
export const relativeName = (root: string, abs: string): string => relative(root, abs).split(sep).join('/')

/** The `code` of a Node fs error, if any. */
export const fsCode = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined

/** A short, user-facing reason for an fs failure. */
export const describeFsError = (e: unknown): string => {
  switch (fsCode(e)) {
    case 'ENOENT':
      return 'not found'
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied'
    case 'EISDIR':
      return 'is a directory, not a file'
    case 'ENOTDIR':
      return 'a parent of it is not a directory'
    case 'ELOOP':
      return 'has a symlink loop'
    default:
      return `cannot be read: ${e instanceof Error ? e.message : String(e)}`
  }
}
