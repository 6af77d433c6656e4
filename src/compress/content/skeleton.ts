/**
 * Code skeletons from an outline. A language front end (`./typescript.ts`, `./python.ts`)
 * finds where the bodies, comments and top-level statements of a source file lie, as line
 * ranges; this module turns that outline into ever barer skeletons:
 * 1. bodies of functions and methods elided, the longest first (rungs by body size);
 * 2. then comment lines dropped;
 * 3. then every top-level statement but the imports kept to its first line (and its
 *    members' first lines: a class's method signatures);
 * 4. then the imports and members too;
 * 5. then only exported statements.
 * What stays is what the issue calls a skeleton: imports, signatures, exported names.
 * Rendering is by whole lines of the original text, so a line-number gutter stays right.
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { fitLadder } from './ladder.js'
import { indentOf, renderHidden } from './lines.js'
import type { ContentResult, Removal } from './model.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** A range of 0-based line indices, `to` exclusive. */
export interface LineRange {
  readonly from: number
  readonly to: number
}

/** Where a source file's parts lie. */
export interface Outline {
  /** Interior lines of function and method bodies (not the lines holding the braces). */
  readonly bodies: ReadonlyArray<LineRange & { readonly name: string }>
  /** Lines holding nothing but a comment. */
  readonly comments: ReadonlyArray<LineRange>
  /** Top-level statements, each from its first line (after leading comments) to its last. */
  readonly statements: ReadonlyArray<Statement>
}

/** A top-level statement. */
export interface Statement extends LineRange {
  readonly isImport: boolean
  /** Exported (Python: a public name), so it stays in the barest skeleton. */
  readonly isExported: boolean
  /** First lines of its members (a class's methods and fields), kept when it is collapsed. */
  readonly members: ReadonlyArray<number>
}

interface Rung {
  /** Bodies of at least this many lines are elided. */
  readonly minBody: number
  readonly comments: boolean
  /**
   * How top-level statements shrink: `members`, each kept to its first line and its
   * members' first lines; `all`, imports too, members not; `exported`, and statements that
   * are not exported go.
   */
  readonly collapse: Collapse
  /** The share of statements (the longest first) collapsed so; the others as one level gentler. */
  readonly share: number
}

type Collapse = 'none' | 'members' | 'all' | 'exported'

const GENTLER: Readonly<Record<Collapse, Collapse>> = { none: 'none', members: 'none', all: 'members', exported: 'all' }

/** Steps of each collapse level, so that a big file need not jump from all signatures to none. */
const SHARES = [0.1, 0.25, 0.5, 0.75, 1]

const ALL = Number.POSITIVE_INFINITY

const RUNGS: ReadonlyArray<Rung> = [
  ...[ALL, 40, 15, 6, 2, 1].map((minBody) => ({ minBody, comments: false, collapse: 'none' as const, share: 1 })),
  { minBody: 1, comments: true, collapse: 'none', share: 1 },
  ...(['members', 'all', 'exported'] as const).flatMap((collapse) => SHARES.map((share) => ({ minBody: 1, comments: true, collapse, share }))),
]

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

/**
 * The gentlest skeleton of `lines` (the original text's lines) that fits the target.
 * `comment` is the language's line-comment opener, for the elision markers.
 *
 * @category utils
 * @since 0.1.0
 */
export const fitSkeleton = (
  lines: ReadonlyArray<string>,
  outline: Outline,
  comment: string,
  targetTokens: number,
  counter: Tokenizer,
): ContentResult => {
  // statements, longest first, for the partial collapse steps
  const bySize = [...outline.statements].sort((a, b) => b.to - b.from - (a.to - a.from))
  const render = (rung: number) => {
    const r = RUNGS[rung]!
    const harsh = new Set(bySize.slice(0, Math.ceil(r.share * bySize.length)))
    const hidden = new Uint8Array(lines.length)
    const hide = (from: number, to: number): void => {
      hidden.fill(1, from, to)
    }
    const bodies = outline.bodies.filter((b) => b.to - b.from >= r.minBody)
    bodies.forEach((b) => hide(b.from, b.to))
    if (r.comments) outline.comments.forEach((c) => hide(c.from, c.to))
    outline.statements.forEach((s) => {
      const collapse = harsh.has(s) ? r.collapse : GENTLER[r.collapse]
      if (collapse === 'none' || (collapse === 'members' && s.isImport)) return
      hide(collapse === 'exported' && !s.isExported ? s.from : s.from + 1, s.to)
      if (collapse === 'members') s.members.forEach((m) => (hidden[m] = 0))
    })
    // a body is reported when its first line is hidden and the line before it (its opening) is not
    const removed: Removal[] = bodies
      .filter((b) => hidden[b.from - 1] !== 1)
      .map((b) => ({ _tag: 'Body' as const, name: b.name, line: b.from + 1, lines: b.to - b.from }))
    const bodyStarts = new Set(removed.map((b) => (b as { readonly line: number }).line - 1))
    const rendered = renderHidden(
      lines,
      (i) => hidden[i] === 1,
      (count, first) => `${indentOf(lines[first] ?? '')}${comment} ... ${count} line${count === 1 ? '' : 's'}`,
      (_, first) => !bodyStarts.has(first),
    )
    return { text: rendered.text, removed: [...removed, ...rendered.removed] }
  }
  return fitLadder(RUNGS.length, render, targetTokens, counter)
}
