/**
 * Generated pi v3 sessions of any length, for benchmarks and tests: deterministic (seeded),
 * with user turns, assistant text, thinking, tool calls and their results.
 *
 * @module
 */
import { prng } from '../internal/prng.js'

/** Settings of {@link syntheticPiSession}. */
export interface SyntheticOptions {
  /** Message entries to write (the header and a model change come on top). */
  readonly messages: number
  /** PRNG seed. Default 1. */
  readonly seed?: number
}

const WORDS =
  'build test fails because the compile script is missing from package json so npm cannot run tsc and the type check never starts we should add it then rerun the suite and read the error output carefully before changing anything else in src index ts'.split(' ')

/** The id of the n-th generated entry. */
export const syntheticId = (n: number): string => `e${n.toString(16).padStart(7, '0')}`

/**
 * The lines of a generated session, newline-free (join with `\n` and end with one).
 *
 * @example
 * writeFileSync(file, syntheticPiSession({ messages: 10_000 }).join('\n') + '\n')
 * @category constructors
 * @since 0.1.0
 */
export const syntheticPiSession = (options: SyntheticOptions): ReadonlyArray<string> => {
  const random = prng(options.seed ?? 1)
  const sentence = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + '.'
  const base = Date.parse('2026-01-10T09:00:00.000Z')
  const lines: string[] = [
    JSON.stringify({ type: 'session', version: 3, id: 'synthetic-session', timestamp: new Date(base).toISOString(), cwd: '/work' }),
    JSON.stringify({ type: 'model_change', id: syntheticId(0), parentId: null, timestamp: new Date(base).toISOString(), provider: 'anthropic', modelId: 'claude-sonnet-4-5' }),
  ]
  const origin = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop' }
  for (let i = 1; i <= options.messages; i++) {
    const ts = base + i * 1000
    const phase = i % 4
    const call = `toolu_${i - 1}`
    const message =
      phase === 1
        ? { role: 'user', content: [{ type: 'text', text: sentence(8 + Math.floor(random() * 20)) }], timestamp: ts }
        : phase === 2
          ? {
              role: 'assistant',
              content: [
                ...(random() < 0.2 ? [{ type: 'thinking', thinking: sentence(12), thinkingSignature: `sig${i}` }] : []),
                { type: 'text', text: sentence(6) },
                { type: 'toolCall', id: `toolu_${i}`, name: 'read', arguments: { path: `src/file${i % 97}.ts` } },
              ],
              ...origin,
              stopReason: 'toolUse',
              timestamp: ts,
            }
          : phase === 3
            ? { role: 'toolResult', toolCallId: call, toolName: 'read', content: [{ type: 'text', text: sentence(20 + Math.floor(random() * 60)) }], isError: false, timestamp: ts }
            : { role: 'assistant', content: [{ type: 'text', text: sentence(10 + Math.floor(random() * 40)) }], ...origin, timestamp: ts }
    lines.push(JSON.stringify({ type: 'message', id: syntheticId(i), parentId: syntheticId(i - 1), timestamp: new Date(ts).toISOString(), message }))
  }
  return lines
}

/**
 * One more user-message line for a generated session of `messages` messages.
 *
 * @category constructors
 */
export const syntheticUserLine = (messages: number, text: string): string =>
  JSON.stringify({
    type: 'message',
    id: syntheticId(messages + 1),
    parentId: syntheticId(messages),
    timestamp: new Date(Date.parse('2026-01-10T09:00:00.000Z') + (messages + 1) * 1000).toISOString(),
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse('2026-01-10T09:00:00.000Z') + (messages + 1) * 1000 },
  })
