/**
 * The session gatherer's read is the one path from a session file to a history: the
 * gatherer's packets and `buildSession` both come from it.
 */
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { sessionGathering } from '../../src/gather/session.js'
import { readSessionFile } from '../../src/gather/sessionFile.js'
import { buildSession } from '../../src/session/build.js'
import { gpt4o } from '../helpers.js'
import { fixture } from '../shared.js'

const right = <A>(e: E.Either<{ readonly message: string }, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left.message)
  return e.right
}

describe('readSessionFile', () => {
  it('is buildSession without its report, and what the gatherer makes packets of', async () => {
    const file = fixture('pi', 'before-compaction.jsonl')
    const read = right(await readSessionFile(file, { tokenizer: gpt4o })())
    const built = right(await buildSession(file, { tokenizer: gpt4o })())
    const { report, ...rest } = built
    expect(rest).toEqual(read)
    expect(report.output).toEqual(read.history.items.map((i) => i.message))
    const gathered = right(await sessionGathering(file, gpt4o, { withNextPrompt: false })())
    expect(gathered.build.history).toEqual(read.history)
    expect(gathered.packets.length).toBe(read.history.items.length)
  })

  it('names the file when it cannot be read', async () => {
    const r = await readSessionFile('/nope/none.jsonl', { tokenizer: gpt4o })()
    expect(E.isLeft(r) && r.left.message).toMatch(/^\/nope\/none\.jsonl: cannot read the file/)
  })
})
