import * as O from 'fp-ts/lib/Option.js'
import { describe, expect, it } from 'vitest'
import { chatTurns } from '../../src/inspect/chat.js'
import { turnSources } from '../../src/inspect/links.js'
import { roomy } from './fixtures.js'
import { openaiOutput } from './chatFixtures.js'

describe('turnSources', () => {
  it('links each turn to the packets it shows: text by content, tool calls and results by id', async () => {
    const r = await roomy()
    const turns = O.getOrElseW(() => [])(chatTurns('openai', openaiOutput))
    expect(turnSources(turns, r.doc)).toEqual([
      ['instructions'], // system
      ['history:6'], // "Turn 6: …"
      ['history:8'], // the call
      ['history:9'], // its result, not the call turn that shares the id
      [], // a result whose call is not in the output
      ['history:10'], // "So why does the CI build fail?"
    ])
  })

  it('keeps history in order: a repeated text links to the turn after the previous match', async () => {
    const r = await roomy()
    const repeated = [
      { role: 'assistant', content: 'Turn 7: we looked at the CI build and the compile step again, without luck.' },
      { role: 'user', content: 'Turn 6: we looked at the CI build and the compile step again, without luck.' },
    ]
    const turns = O.getOrElseW(() => [])(chatTurns('openai', repeated))
    // history:6 is matched first (turn 1); history:7 may not go back to turn 0
    expect(turnSources(turns, r.doc)).toEqual([[], ['history:6']])
  })
})
