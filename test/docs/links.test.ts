/**
 * Every relative link in README.md and docs/*.md leads somewhere: the file (or folder) exists,
 * and an anchor (`guide.md#section`, `#section`) names a heading of the Markdown file it
 * points into, slugged as GitHub slugs headings (`github-slugger`). Links in code blocks and
 * code spans are not links; web addresses are not checked (nothing goes online in tests).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import GithubSlugger from 'github-slugger'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** The page's Markdown without fenced code blocks, where `# x` is not a heading. */
const withoutFences = (markdown: string): string => markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1\2[^\n]*$/gm, '')

/** The page's Markdown without code blocks and code spans, where `[a](b)` is code, not a link. */
const prose = (markdown: string): string => withoutFences(markdown).replace(/(`+)[\s\S]*?\1/g, '')

/** Every inline link's target, images included: `[text](target "title")`, `<target>` unwrapped. */
const linksOf = (markdown: string): ReadonlyArray<string> =>
  [...prose(markdown).matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)].map((m) => m[1]!.replace(/^<|>$/g, ''))

/** The anchors GitHub gives a Markdown file's headings (duplicates numbered `-1`, `-2`…), plus explicit `id`/`name` anchors. */
const anchorsOf = (markdown: string): ReadonlySet<string> => {
  const slugger = new GithubSlugger()
  const headings = [...withoutFences(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)].map((m) =>
    // what GitHub slugs is the heading's text: a link as its words, no tags (the slugger drops `*` and backticks)
    slugger.slug(m[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')),
  )
  const explicit = [...markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map((m) => m[1]!)
  return new Set([...headings, ...explicit])
}

/** What is wrong with one link of `page`, or undefined when it leads somewhere. */
const problem = (page: string, link: string): string | undefined => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) return undefined // a web address, mailto:…
  const [path = '', anchor] = link.split('#', 2) as [string, string | undefined]
  const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path))
  if (!target.startsWith(ROOT)) return `${link}: leaves the repository`
  if (!existsSync(target)) return `${link}: ${relative(ROOT, target)} does not exist`
  if (anchor === undefined || anchor === '') return undefined
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `${link}: an anchor into ${relative(ROOT, target)}, which is not a Markdown file`
  return anchorsOf(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor)) ? undefined : `${link}: ${relative(ROOT, target)} has no heading #${anchor}`
}

describe('relative Markdown links', () => {
  it('finds links and headings the way GitHub reads them', () => {
    const page = '# Title\n\nSee [the guide](docs/x.md#a-b) and ![logo](img.png "Logo").\n\n```ts\n[not](a-link.md)\n```\n\n`[nor](this.md)`\n\n## A `b` *c*\n## A `b` *c*\n'
    expect(linksOf(page)).toEqual(['docs/x.md#a-b', 'img.png'])
    expect([...anchorsOf(page)]).toEqual(['title', 'a-b-c', 'a-b-c-1'])
    // a broken link is reported, naming the link and what is missing
    expect(problem('README.md', 'docs/no-such-guide.md')).toMatch(/no-such-guide\.md does not exist/)
    expect(problem('README.md', '#no-such-heading')).toMatch(/README\.md has no heading #no-such-heading/)
    expect(problem('README.md', 'https://example.com/x.md')).toBeUndefined()
  })

  it.each(PAGES)('%s: every relative link exists, and every anchor names a heading', (page) => {
    const problems = linksOf(readFileSync(join(ROOT, page), 'utf8')).flatMap((link) => problem(page, link) ?? [])
    expect(problems).toEqual([])
  })
})
