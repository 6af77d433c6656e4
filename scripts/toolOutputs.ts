/**
 * Real tool outputs, for measuring and testing the content compressors: every tool result
 * in the pi sessions and Claude Code transcripts of `../shared/fixtures` (read with gssc's
 * own session loader), each with the path its call named, plus the structured
 * `toolUseResult` records Claude Code keeps beside its results (real JSON tool output).
 *
 * @module
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import type { ContentHint } from '../src/compress/content/index.js'
import { loadSession } from '../src/session/index.js'

/** One recorded tool output. */
export interface ToolOutput {
  /** `<fixture file>#<n>`: where it came from. */
  readonly id: string
  readonly tool: string
  readonly text: string
  /** What a caller would know: the path the call read, for file reads. */
  readonly hint: ContentHint
}

/** `../shared/fixtures` beside the repository. */
export const FIXTURES = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shared/fixtures')

/** The fixture files read, relative to {@link FIXTURES}. */
export const TOOL_OUTPUT_FILES = [
  'pi/large-session.jsonl',
  'pi/before-compaction.jsonl',
  'claude-code/short.jsonl',
  'claude-code/tool_heavy.jsonl',
] as const

/** Every tool output of the fixture files, in file order. */
export const toolOutputs = async (): Promise<ReadonlyArray<ToolOutput>> => {
  const out: ToolOutput[] = []
  for (const file of TOOL_OUTPUT_FILES) {
    const loaded = await loadSession(resolve(FIXTURES, file))()
    if (E.isLeft(loaded)) throw new Error(loaded.left.message)
    const paths = new Map<string, string>()
    for (const entry of loaded.right.entries) {
      if (entry.body._tag !== 'Message') continue
      for (const m of entry.body.messages)
        for (const part of m.parts) {
          if (part._tag === 'ToolCall') {
            const path = part.args['path'] ?? part.args['file_path']
            if (typeof path === 'string') paths.set(part.id, path)
          }
          if (part._tag !== 'ToolResult') continue
          const text = part.content.flatMap((c) => (c._tag === 'Text' ? [c.text] : [])).join('\n')
          const path = paths.get(part.callId)
          out.push({ id: `${file}#${out.length}`, tool: part.name, text, hint: path === undefined ? {} : { path } })
        }
    }
    // Claude Code keeps each result's structured form beside it
    if (file.startsWith('claude-code/'))
      readFileSync(resolve(FIXTURES, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.trim() === '') return
          const record = JSON.parse(line) as { readonly toolUseResult?: unknown }
          if (typeof record.toolUseResult === 'object' && record.toolUseResult !== null)
            out.push({
              id: `${file}:${i + 1}`,
              tool: 'toolUseResult',
              text: JSON.stringify(record.toolUseResult, null, 2),
              hint: { contentType: 'application/json' },
            })
        })
  }
  return out
}
