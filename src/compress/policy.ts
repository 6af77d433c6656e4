/**
 * Fitting policies: how a layout gives way when it does not fit its budget, as plain data.
 * Every budgeted builder (the core build, the session strategies, the workspace prompt, the
 * chunk context, the conversation builder, `fitMessages`) states its policy with these
 * values and fits through the one engine (`./engine.ts`); nothing else decides what to cut.
 *
 * What a policy says, and where:
 * - per section (`Section` in `structure/document.ts`): which end loses units first
 *   (`dropFrom`), which part of a cut text stays (`keep`), the cut marker, an optional token
 *   `cap` (`fill` order) and an item-count `limit`;
 * - per item (`Item`): `pinned` (gives way only after everything else in its section), an
 *   optional token `cap` (a per-file cap, a huge tool result), `priority` (`fill` order), a
 *   counted `marker` (a cut says what it kept of how much), `group` (a tool call and its
 *   results: one unit, never split; a group of one is an item that is never cut);
 * - for the whole layout: a {@link FitPolicy}.
 *
 * @module
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/**
 * The order in which a layout gives way.
 *
 * - `rank` (the seed's truncation): sections give way from the highest rank down; each
 *   loses whole units from its `dropFrom` end, then one cut; with `halve`, a section that
 *   would lose more than half of itself goes whole instead; the lowest-ranked section is
 *   cut, never dropped, while any of it fits.
 * - `fill`: units are kept one at a time in preference order — pinned units first (in
 *   layout order), then by item `priority` (lowest first), section rank (lowest first) and
 *   place from the section's keep end (the newest turns first) — while they fit; `miss` says
 *   what happens at the first unit that does not: `stop` (a contiguous window: the history,
 *   the chunk context), `skip` (try the next: smart history), or `cut` (cut it to the room
 *   left, then stop: the workspace prompt). Pinned units that do not fit are skipped. After
 *   the exact count, units past the stop are taken back while they fit (`stop`); under `cut`,
 *   the last unit taken is cut further before it is given back, and the unit cut to the room
 *   left gets back what the estimates wasted. A section with a token `cap` closes at its first
 *   unit that does not fit the cap (cut to the cap's room left under `cut`); the other
 *   sections go on.
 */
export type FitOrder = 'rank' | 'fill'

/** How a layout gives way. */
export interface FitPolicy {
  readonly order: FitOrder
  /** `rank` order: a section that would lose more than half of itself goes whole. */
  readonly halve: boolean
  /** Whether an item's text may be cut; otherwise items go whole. */
  readonly cut: boolean
  /** The smallest cut worth keeping, in tokens: below it the item goes whole. */
  readonly minKept: number
  /** `fill` order: what the first unit that does not fit does (see {@link FitOrder}). Default `stop`. */
  readonly miss?: 'stop' | 'skip' | 'cut'
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/** The smallest cut worth keeping by default, in tokens. */
export const MIN_KEPT_TOKENS = 8

/**
 * The seed's truncation: by rank, halving, cutting text.
 *
 * @category constructors
 * @since 0.2.0
 */
export const truncatePolicy: FitPolicy = { order: 'rank', halve: true, cut: true, minKept: MIN_KEPT_TOKENS }

/**
 * Whole items only, lowest rank last: what a compressor that never cuts text gets.
 *
 * @category constructors
 * @since 0.2.0
 */
export const wholeItemsPolicy: FitPolicy = { order: 'rank', halve: false, cut: false, minKept: MIN_KEPT_TOKENS }

/**
 * A contiguous window of whole units, newest first, pinned units kept first: the session
 * strategies' truncation, the chunk context, the conversation builder.
 *
 * @category constructors
 * @since 0.2.0
 */
export const windowPolicy: FitPolicy = { order: 'fill', halve: false, cut: false, minKept: MIN_KEPT_TOKENS, miss: 'stop' }

/**
 * Units by preference, skipping what does not fit (smart history).
 *
 * @category constructors
 * @since 0.2.0
 */
export const preferencePolicy: FitPolicy = { order: 'fill', halve: false, cut: false, minKept: MIN_KEPT_TOKENS, miss: 'skip' }
