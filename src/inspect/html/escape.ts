/**
 * Escaping for the HTML report. Every string that comes from a build (packet ids, sources,
 * content, details) goes through one of these before it reaches the page.
 *
 * @module
 */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text safe in element content and in quoted attribute values.
 *
 * @example
 * escapeHtml('<script>alert("x")</script>') // '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
 * @category utils
 */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)

/**
 * JSON safe inside a `<script type="application/json">` element: `<`, `>` and `&` become
 * `\u003c`-style escapes, so a `</script>` in the data cannot close the element, and the line
 * and paragraph separators are escaped for older JavaScript parsers. `JSON.parse` reads it
 * back unchanged.
 *
 * @category utils
 */
export const jsonForScript = (value: unknown): string =>
  (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** An attribute, ` name="value"`, with its value escaped. @category utils */
export const attr = (name: string, value: string | number | boolean): string => ` ${name}="${escapeHtml(String(value))}"`
