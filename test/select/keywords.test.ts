import { describe, expect, it } from 'vitest'
import { keywordExtractor, stem } from '../../src/select/keywords.js'

const kw = keywordExtractor()

describe('keywordExtractor', () => {
  it('segments Chinese with Intl.Segmenter rather than whitespace', () => {
    expect([...kw('今天天气怎么样？')]).toEqual(['今天', '天气'])
  })

  it('segments Japanese and mixed-script text', () => {
    const k = kw('東京の天気は？ Tokyo weather')
    expect(k.has('東京')).toBe(true)
    expect(k.has('天気')).toBe(true)
    expect(k.has('tokyo')).toBe(true)
    expect(k.has('weather')).toBe(true)
  })

  it('lowercases, drops stopwords and stems English', () => {
    expect([...kw('Why does the Build FAIL?')]).toEqual(['build', 'fail'])
    expect([...kw('The builds failed twice')]).toEqual(['build', 'fail', 'twic'])
  })

  it('keeps stopwords when nothing else is left, and yields nothing for punctuation', () => {
    expect([...kw('and why?')]).toEqual(['and', 'why'])
    expect(kw('?!…').size).toBe(0)
  })

  it('handles a long unspaced run (chunked for the segmenter)', () => {
    const text = '构建失败的原因是缺少编译脚本。'.repeat(200).replace(/。/g, '')
    const k = kw(text)
    expect(k.has('失败')).toBe(true)
    expect(k.has('脚本')).toBe(true)
  })
})

describe('stem', () => {
  it.each([
    ['fails', 'fail'],
    ['failed', 'fail'],
    ['failing', 'fail'],
    ['stopped', 'stop'],
    ['tries', 'try'],
    ['boxes', 'box'],
    ['compile', 'compil'],
    ['compiled', 'compil'],
    ['status', 'status'],
    ['was', 'was'],
    ['天气', '天气'],
  ])('%s → %s', (word, expected) => expect(stem(word)).toBe(expected))
})
