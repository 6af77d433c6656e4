/**
 * Separators shared by the system-prompt composers.
 *
 * @module
 */

/** Between the parts of a composed system prompt (both seeds use it): `\n\n---\n\n`. */
export const PART_SEPARATOR = '\n\n---\n\n'
