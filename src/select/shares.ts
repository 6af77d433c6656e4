/**
 * Per-type settings of the selector: budget shares (a floor, a cap) and scoring (recency
 * decay, relevance and recency weights) for each packet type, as config data
 * (`config.types`).
 *
 * Shares are fractions of the room the selector fills: the available budget less what is
 * always kept (P0, the task) and the layout's reserve. A floor is room held for its type: the
 * selector fills it first with that type's best units (the newest turns, for history), so
 * a thousand relevant passages can no longer push out the whole conversation; a floor its
 * type cannot fill gives the rest back. A cap bounds what its type may take, whatever is
 * left. Fractions rather than tokens, so one setting serves every budget.
 *
 * @module
 */
import { PACKET_TYPES, type PacketType } from '../packet.js'

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

/** Settings for one packet type; every field is optional. */
export interface TypeSettings {
  /** Share of the selectable room held for this type, in [0, 1]: it gets at least this much when it has it. */
  readonly floor?: number
  /** Share of the selectable room this type may take at most, in (0, 1]. */
  readonly cap?: number
  /** Recency decay τ in seconds for this type (overrides `recencyTau`). */
  readonly recencyTau?: number
  /** Weight of relevance in this type's composite score (overrides `relevanceWeight`). */
  readonly relevanceWeight?: number
  /** Weight of recency in this type's composite score (overrides `recencyWeight`). */
  readonly recencyWeight?: number
}

/** Per-type settings, by packet type. */
export type TypeSettingsByType = Readonly<Partial<Record<PacketType, TypeSettings>>>

/** A problem with `config.types`: the field path below `config`, the value, and what is wrong. */
export interface TypesProblem {
  readonly field: string
  readonly value: unknown
  readonly problem: string
}

/** Token rooms of one fill: floors and caps turned into tokens of the selectable room. */
export interface ShareRooms {
  /** Tokens held for each floored type, in packet-type order. */
  readonly floors: ReadonlyArray<{ readonly type: PacketType; readonly tokens: number; readonly share: number }>
  /** The most each capped type may take. */
  readonly caps: ReadonlyMap<PacketType, { readonly tokens: number; readonly share: number }>
}

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

const FIELDS: ReadonlyArray<keyof TypeSettings> = ['floor', 'cap', 'recencyTau', 'relevanceWeight', 'recencyWeight']

const fieldProblem = (key: keyof TypeSettings, v: unknown): string | undefined => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a finite number'
  if (key === 'floor') return v < 0 || v > 1 ? 'must be in [0, 1]' : undefined
  if (key === 'cap') return v <= 0 || v > 1 ? 'must be in (0, 1]' : undefined
  if (key === 'recencyTau') return v <= 0 ? 'must be greater than 0' : undefined
  return v < 0 ? 'must not be negative' : undefined
}

/**
 * Checks `config.types`: known packet types, known fields, values in range, a floor no
 * higher than its type's cap, and floors summing to at most 1 (the room cannot be held
 * twice). The problem names the field (`types.history.floor`).
 *
 * @example
 * typesProblem({ history: { floor: 0.7 }, evidence: { floor: 0.5 } })
 * // { field: 'types', problem: 'the floors sum to 1.2 (types.history.floor 0.7 + types.evidence.floor 0.5); they must not exceed 1', … }
 * @category constructors
 * @since 0.2.0
 */
export const typesProblem = (value: unknown): TypesProblem | undefined => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { field: 'types', value, problem: 'must be an object of per-type settings, such as { history: { floor: 0.3 } }' }
  const floors: Array<readonly [string, number]> = []
  for (const [type, settings] of Object.entries(value)) {
    if (!(PACKET_TYPES as ReadonlyArray<string>).includes(type))
      return { field: `types.${type}`, value: settings, problem: `unknown packet type; known types: ${PACKET_TYPES.join(', ')}` }
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      return { field: `types.${type}`, value: settings, problem: `must be an object with any of ${FIELDS.join(', ')}` }
    for (const [key, v] of Object.entries(settings)) {
      if (v === undefined) continue
      if (!(FIELDS as ReadonlyArray<string>).includes(key)) return { field: `types.${type}.${key}`, value: v, problem: `unknown field; known fields: ${FIELDS.join(', ')}` }
      const problem = fieldProblem(key as keyof TypeSettings, v)
      if (problem !== undefined) return { field: `types.${type}.${key}`, value: v, problem }
    }
    const { floor, cap } = settings as TypeSettings
    if (floor !== undefined && cap !== undefined && floor > cap)
      return { field: `types.${type}.floor`, value: floor, problem: `must not exceed types.${type}.cap (${cap})` }
    if (floor !== undefined && floor > 0) floors.push([type, floor])
  }
  const sum = floors.reduce((s, [, f]) => s + f, 0)
  // a little slack for sums such as 0.1 + 0.2 + 0.7 that are 1 in decimal
  if (sum > 1 + 1e-9)
    return {
      field: 'types',
      value,
      problem: `the floors sum to ${round(sum)} (${floors.map(([t, f]) => `types.${t}.floor ${f}`).join(' + ')}); they must not exceed 1`,
    }
  return undefined
}

/**
 * The token rooms of the shares for a selectable room of `room` tokens (rounded down, so
 * floors never add up to more than the room).
 *
 * @category constructors
 * @since 0.2.0
 */
export const shareRooms = (types: TypeSettingsByType, room: number): ShareRooms => {
  const floors: Array<ShareRooms['floors'][number]> = []
  const caps = new Map<PacketType, { readonly tokens: number; readonly share: number }>()
  const whole = Math.max(0, room)
  for (const type of PACKET_TYPES) {
    const s = types[type]
    if (s?.floor !== undefined && s.floor > 0) floors.push({ type, tokens: Math.floor(s.floor * whole), share: s.floor })
    if (s?.cap !== undefined && s.cap < 1) caps.set(type, { tokens: Math.floor(s.cap * whole), share: s.cap })
  }
  return { floors, caps }
}

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const round = (x: number): number => Math.round(x * 1000) / 1000

/** A share as a percentage for a report line: `30%`. @category utils */
export const percent = (share: number): string => `${round(share * 100)}%`
