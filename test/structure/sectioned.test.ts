import { describe, expect, it } from 'vitest'
import { defaultSelector } from '../../src/select/selector.js'
import { renderText } from '../../src/structure/document.js'
import { minimal } from '../../src/structure/minimal.js'
import { sectioned } from '../../src/structure/sectioned.js'
import { MINUTE, NOW } from '../helpers.js'
import { gathered } from '../select/fixtures.js'

const request = {
  query: '今天天气怎么样？',
  instructions: '你是一个有帮助的助手。',
  history: [
    { role: 'user' as const, content: '你好', timestamp: NOW - 2 * MINUTE },
    { role: 'assistant' as const, content: '你好！有什么可以帮你？', timestamp: NOW - MINUTE },
  ],
  packets: [
    { id: 's', type: 'task_state' as const, content: '已确认用户在北京。', relevance: 0.8 },
    { id: 'm', type: 'evidence' as const, content: '北京今天天气晴朗。', source: 'memory' },
    { id: 'r', type: 'evidence' as const, content: '今天天气预报：晴，25 度。', source: 'rag', relevance: 0.9 },
  ],
}

describe('sectioned', () => {
  it("reproduces the seed's Chinese layout exactly", async () => {
    const s = defaultSelector()(await gathered(request, { locale: 'zh' }))
    expect(renderText(sectioned()(s))).toBe(
      [
        '[Role & Policies]\n你是一个有帮助的助手。',
        '[Task]\n用户问题：今天天气怎么样？',
        '[State]\n关键进展与未决问题：\n已确认用户在北京。',
        // memory matches both query keywords (relevance 1), rag carries its own 0.9
        '[Evidence]\n事实与引用：\n[来源: memory] 北京今天天气晴朗。\n[来源: rag] 今天天气预报：晴，25 度。',
        '[Context]\n对话历史与背景：\n用户：你好\n助手：你好！有什么可以帮你？',
        '[Output]\n请按以下格式回答：\n1. 结论（简洁明确）\n2. 依据（列出支撑证据及来源）\n3. 风险与假设（如有）\n4. 下一步行动建议（如适用）',
      ].join('\n\n'),
    )
  })

  it('has an English label set and leaves empty sections out', async () => {
    const s = defaultSelector()(await gathered({ query: 'What now?', instructions: 'Be brief.' }))
    expect(renderText(sectioned({ output: false })(s))).toBe('[Role & Policies]\nBe brief.\n\n[Task]\nUser question: What now?')
    expect(renderText(sectioned()(s))).toContain('[Output]\nPlease answer in this format:\n1. Conclusion (concise and clear)')
  })

  it('puts custom packets in a Notes section that is cut first', async () => {
    const s = defaultSelector()(await gathered({ query: 'build', packets: [{ id: 'c', type: 'custom', content: 'build runs on Fridays' }] }))
    const doc = sectioned({ output: false })(s)
    expect(renderText(doc)).toBe('[Task]\nUser question: build\n\n[Notes]\nAdditional notes:\nbuild runs on Fridays')
    const ranks = doc.blocks.flatMap((b) => (b._tag === 'Section' ? [[b.name, b.rank]] : []))
    expect(Object.fromEntries(ranks)).toEqual({ instructions: 0, task: 1, state: 3, evidence: 4, context: 5, custom: 6 })
  })
})

describe('minimal', () => {
  it('has no headings and keeps priority order', async () => {
    const s = defaultSelector()(await gathered(request, { locale: 'zh' }))
    expect(renderText(minimal()(s))).toBe(
      [
        '你是一个有帮助的助手。',
        '今天天气怎么样？',
        '已确认用户在北京。',
        '[来源: memory] 北京今天天气晴朗。\n\n[来源: rag] 今天天气预报：晴，25 度。',
        '用户：你好\n\n助手：你好！有什么可以帮你？',
      ].join('\n\n'),
    )
  })
})
