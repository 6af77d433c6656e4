import { describe, expect, it } from 'vitest'
import { message, toolCall, toolResult } from '../src/message.js'
import { sharedCallGroups, toolGroups, toolUnitOf, windowOpening } from '../src/toolUnits.js'

const calling = (...ids: ReadonlyArray<string>) => message('assistant', ids.map((id) => toolCall(id, 'read', {})))
const answering = (...ids: ReadonlyArray<string>) => message('tool', ids.map((id) => toolResult(id, 'read', 'ok')))

describe('toolUnitOf', () => {
  it('puts results with the turn that made their calls, and leaves other turns and stray results out', () => {
    const turns = [message('user', 'go'), calling('c1', 'c2'), answering('c1'), answering('c2'), message('user', 'more'), answering('zz')]
    expect(toolUnitOf(turns)).toEqual([-1, 1, 1, 1, -1, -1])
    expect(toolGroups(turns, 10)).toEqual([undefined, 'tools:11', 'tools:11', 'tools:11', undefined, undefined])
  })

  it('gives a reused call id to its latest call', () => {
    expect(toolUnitOf([calling('c0'), answering('c0'), calling('c0'), answering('c0')])).toEqual([0, 0, 2, 2])
  })
})

describe('sharedCallGroups', () => {
  it('joins items sharing a call id, transitively', () => {
    expect(sharedCallGroups([['c1'], [], ['c1', 'c2'], ['c2'], ['c3']])).toEqual([0, 1, 0, 0, 4])
  })
})

describe('windowOpening', () => {
  it('opens a window past the turns of results its cut left without their calls', () => {
    const turns = [message('user', 'go'), calling('c1'), answering('c1'), answering('c1'), message('assistant', 'done')]
    expect(windowOpening(turns, 2)).toBe(4)
    expect(windowOpening(turns, 1)).toBe(1)
    expect(windowOpening(turns.slice(0, 4), 2)).toBe(4)
  })
})
