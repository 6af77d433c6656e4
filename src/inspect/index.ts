/**
 * See where the budget went: the explain table (data and terminal text), the self-contained
 * HTML report, and a progress indicator for long operations.
 *
 * @module
 */
export { explain, packetRows, UNPLACED, type ExplainTable, type PacketRow, type SectionRow, type Totals } from './explain.js'
export { renderExplain, type ExplainOptions } from './terminal.js'
export { renderReport, type ReportOptions } from './html/report.js'
export type { PacketDetail } from './html/table.js'
export { chatTurns, type ChatBlock, type ChatTurn, type MediaBlock } from './chat.js'
export { progress, type Progress, type ProgressOptions, type ProgressOut } from './progress.js'
export { useColor } from './color.js'
