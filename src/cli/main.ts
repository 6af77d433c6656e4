/**
 * The `gssc` command line.
 *
 * @module
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { runBuild, type BuildFlags } from './build.js'
import { runSessions } from './sessions.js'
import { runWorkspaceInit } from './workspace.js'
import { EXIT, type Io } from './io.js'

const number =
  (flag: string, check: (n: number) => boolean, expected: string) =>
  (value: string): number => {
    const n = value === 'all' || value === 'Infinity' ? Number.POSITIVE_INFINITY : Number(value)
    if (value.trim() === '' || Number.isNaN(n) || !check(n)) throw new InvalidArgumentError(`${flag} must be ${expected} (got ${JSON.stringify(value)})`)
    return n
  }

const program = (io: Io, exit: (code: number) => void): Command => {
  const root = new Command('gssc')
    .description('Build the context an LLM sees within a token budget, and report what was kept and why.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError()

  root
    .command('build')
    .description('gather, select, structure and compress a context; print it (or --json)')
    .option('-q, --query <text>', 'the current user query (the task)')
    .option('-s, --system <text|@file>', 'system instructions, as text or @path')
    .option('--history <file>', 'conversation so far: a JSON array or JSON Lines of {role, content, timestamp?}')
    .option('--packets <file>', 'extra packets, JSON Lines of {id?, type, content, timestamp?, source?, metadata?, priority?, relevance?}')
    .option('-m, --model <name>', 'model or encoding that picks the tokenizer (gpt-4o, gpt-4, claude-…, o200k_base, cl100k_base, estimate)', 'gpt-4o')
    .option('--max-tokens <n>', 'total token budget (default 8000)', number('--max-tokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer'))
    .option('--reserve-ratio <r>', 'share of the budget kept for the answer, in [0, 1) (default 0.15)', number('--reserve-ratio', (n) => n >= 0 && n < 1, 'a number in [0, 1)'))
    .option('--min-relevance <r>', 'drop evidence below this relevance, in [0, 1] (default 0.3)', number('--min-relevance', (n) => n >= 0 && n <= 1, 'a number in [0, 1]'))
    .option('--max-history <n>', 'how many recent turns to consider, or "all" (default 10)', number('--max-history', (n) => n === Infinity || (Number.isInteger(n) && n >= 0), 'a non-negative integer or "all"'))
    .option('--mmr', 'rank evidence for diversity (maximal marginal relevance)')
    .option('--no-compression', 'never cut text; drop whole packets instead')
    .addOption(new Option('--structurer <name>', 'layout (xml: agent chunks as XML elements, grouped by role)').choices(['default', 'minimal', 'template', 'xml']).default('default'))
    .option('--template <file>', 'template file for --structurer template ({{instructions}}, {{task}}, {{state}}, {{evidence}}, {{context}}, {{custom}}, {{output}})')
    .addOption(new Option('--locale <locale>', 'labels of the default layout').choices(['en', 'zh']))
    .addOption(new Option('--format <format>', 'what to send: one prompt text, OpenAI messages, or an Anthropic { system, messages } request').choices(['text', 'openai', 'anthropic']).default('text'))
    .option('--session <file>', 'a session file (pi, Claude Code, or the seed JSONL format) as the history')
    .option('--leaf <id>', 'the branch of --session to use (default: the file\'s own; see gssc sessions)')
    .option('--strategy <name>', 'fit the history with truncate, compress (summarize the older part) or smart (keep the important turns, summarize the rest)')
    .option('--keep-recent <n>', 'keep at most this many recent turns verbatim', number('--keep-recent', (n) => Number.isInteger(n) && n >= 0, 'a non-negative integer'))
    .option('--workspace <dir>', 'an agent workspace (AGENTS.md, SOUL.md, memory/, skills/) as the system prompt')
    .option('--media <file...>', 'images sent with the query (jpg, png, gif, webp; with --format openai or anthropic)')
    .option('--channel <name>', 'the chat channel, noted in the workspace prompt (with --chat-id)')
    .option('--chat-id <id>', 'the chat id, noted in the workspace prompt (with --channel)')
    .option('--chunks <file>', "an agent's chunk memory state (JSON) as the content")
    .option('--json', 'print the output and the full report as JSON')
    .option('--explain', 'after the output, show where the budget went: sections, dropped and cut packets, totals (on stderr)')
    .option('--report <file>', 'write a self-contained HTML report of the build to <file>')
    .action(async (flags: BuildFlags) => exit(await runBuild(flags, io)))

  root
    .command('sessions')
    .description('list the branches of a session file (leaf ids, length, last message)')
    .argument('<file>', 'a pi, Claude Code or seed-format JSONL session')
    .option('--json', 'print the branches as JSON')
    .action(async (file: string, flags: { json?: boolean }) => exit(await runSessions(file, flags, io)))

  root
    .command('workspace')
    .description('agent workspaces')
    .command('init')
    .description('write a small starter workspace (never overwrites a file)')
    .argument('<dir>', 'where to create it')
    .action(async (dir: string) => exit(await runWorkspaceInit(dir, io)))
  return root
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit code.
 *
 * @example
 * process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() })
 * @category constructors
 * @since 0.1.0
 */
export const run = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  let code: number = EXIT.ok
  try {
    await program(io, (c) => (code = c)).parseAsync([...argv], { from: 'user' })
    return code
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage
    throw e
  }
}
