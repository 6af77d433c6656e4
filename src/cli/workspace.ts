/**
 * `gssc workspace init <dir>`: a starter agent workspace, never overwriting a file.
 *
 * @module
 */
import * as E from 'fp-ts/lib/Either.js'
import { initWorkspace } from '../workspace/init.js'
import { EXIT, type Io } from './io.js'

/**
 * @category constructors
 */
export const runWorkspaceInit = async (dir: string, io: Io): Promise<number> => {
  const r = await initWorkspace(dir)()
  if (E.isLeft(r)) {
    io.stderr.write(`gssc workspace init: ${r.left.message}\n`)
    return EXIT.failed
  }
  for (const f of r.right.created) io.stdout.write(`created ${f}\n`)
  for (const f of r.right.skipped) io.stdout.write(`kept    ${f} (already there)\n`)
  io.stderr.write(`gssc: workspace ready in ${r.right.root}; try: gssc build --workspace ${dir} --query "hello"\n`)
  return EXIT.ok
}
