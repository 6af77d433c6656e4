/**
 * Your own layout: a template with placeholders, or the minimal layout.
 *
 * Run: npx tsx examples/custom-template.ts
 */
import * as E from 'fp-ts/lib/Either.js'
import { build, createTokenizer, minimal, template } from 'gssc'
import { history, isMain, NOW, packets, system } from './load.js'

export const TEMPLATE = `<instructions>
{{instructions}}
</instructions>

<facts>
{{evidence}}
</facts>

<open_questions>
{{state}}
</open_questions>

<conversation>
{{context}}
</conversation>

Question: {{task}}`

export const main = async (): Promise<string> => {
  const tokenizer = createTokenizer('gpt-4o')
  const layout = template(TEMPLATE)
  if (E.isLeft(tokenizer)) throw new Error(tokenizer.left.message)
  if (E.isLeft(layout)) throw new Error(layout.left.message)
  const request = { query: 'Why does the CI build fail?', instructions: system(), history: history(), packets: packets() }
  const options = { tokenizer: tokenizer.right, now: NOW, config: { maxTokens: 900, maxHistoryMessages: 4 } }
  const viaTemplate = await build(request, { ...options, structurer: layout.right })()
  const viaMinimal = await build(request, { ...options, structurer: minimal() })()
  if (E.isLeft(viaTemplate) || E.isLeft(viaMinimal)) throw new Error('build failed')
  const notPlaced = viaTemplate.right.excluded.filter((e) => e.reason === 'not_in_layout').map((e) => e.id)
  return [
    '== template ==',
    viaTemplate.right.output,
    `-- not in the template's layout: ${notPlaced.join(', ') || 'nothing'}`,
    '',
    '== minimal ==',
    viaMinimal.right.output,
  ].join('\n')
}

if (isMain(import.meta.url)) console.log(await main())
