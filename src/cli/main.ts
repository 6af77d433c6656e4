/**
 * The `gssc` command line. Each command's code is imported when that command runs, so
 * `gssc --help` (and a command's usage error) loads only this module and commander.
 *
 * @module
 */
import { createRequire } from 'node:module'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import { visible } from '../inspect/width.js'
import { modelEncoding } from '../tokenize/models.js'
import type { BatchFlags } from './batch.js'
import type { BuildFlags } from './build.js'
import type { PromptFlags } from './workspace.js'
import { workspaceOptions } from './workspaceFlags.js'
import { EXIT, type Io } from './io.js'

/** An integer flag: decimal digits only (no `0x10`, `1e3`, `12.0`), at most 2^53 − 1; `all` where allowed. */
const integer =
  (flag: string, min: number, orAll = false) =>
  (value: string): number => {
    const v = value.trim()
    if (orAll && (v === 'all' || v === 'Infinity')) return Number.POSITIVE_INFINITY
    const n = /^\d+$/.test(v) ? Number(v) : Number.NaN
    if (!Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(
        `${flag} must be ${min > 0 ? 'a positive' : 'a non-negative'} whole number up to 9007199254740991${orAll ? ', or "all"' : ''} (got ${JSON.stringify(value)})`,
      )
    return n
  }

/** A ratio flag: a plain decimal number (no `0x`, no `Infinity`) in the flag's range. */
const ratio =
  (flag: string, check: (n: number) => boolean, expected: string) =>
  (value: string): number => {
    const v = value.trim()
    const n = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(v) ? Number(v) : Number.NaN
    if (!Number.isFinite(n) || !check(n)) throw new InvalidArgumentError(`${flag} must be ${expected} (got ${JSON.stringify(value)})`)
    return n
  }

/** `--model`: a name the tokenizer knows, checked while the command line is read. */
const model = (value: string): string => {
  const t = modelEncoding(value)
  if (E.isLeft(t)) throw new InvalidArgumentError(`--model ${t.left.message.replace(/^config\.model: /, '')}`)
  return value
}

/**
 * The package's version, read when asked for (`--version`): from the nearest `package.json`
 * of gssc above this module (`dist/cli/`, or the bundle's `dist/cli/bundle/`).
 */
const version = (): string => {
  const require = createRequire(import.meta.url)
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const p = require(up) as { readonly name?: string; readonly version: string }
      if (p.name === 'gssc') return p.version
    } catch {
      // not there: one level up
    }
  }
  return 'unknown'
}

/** The line after a usage error: where the full usage is, rather than all of it. */
const seeHelp = (command: string): string => `(see '${command} --help')`

/** The options of a context build that `gssc build` and `gssc batch` share. */
const contextOptions = (cmd: Command): Command =>
  cmd
    .option('-q, --query <text>', 'the current user query (the task); with --session it may be left out: the session\'s own last user turn is the task')
    .option('-s, --system <text|@file>', 'system instructions, as text or @path')
    .option('-m, --model <name>', 'model or encoding that picks the tokenizer (gpt-4o, openai/gpt-4.1, ft:gpt-4o-mini:…, o3, gpt-5, gpt-4, claude-…, o200k_base, cl100k_base, estimate)', model, 'gpt-4o')
    .option('--max-tokens <n>', 'total token budget (default 8000)', integer('--max-tokens', 1))
    .option('--reserve-ratio <r>', 'share of the budget kept for the answer, in [0, 1) (default 0.15)', ratio('--reserve-ratio', (n) => n >= 0 && n < 1, 'a number in [0, 1)'))
    .option('--min-relevance <r>', 'drop evidence below this relevance, in [0, 1] (default 0.3)', ratio('--min-relevance', (n) => n >= 0 && n <= 1, 'a number in [0, 1]'))
    .option('--max-history <n>', 'how many recent turns to consider, or "all" (default 10)', integer('--max-history', 0, true))
    .option('--mmr', 'rank evidence for diversity (maximal marginal relevance)')
    .option('--no-compression', 'never cut text; drop whole packets instead')
    .addOption(
      new Option('--structurer <name>', 'layout; default: chat for --format openai|anthropic (adds nothing you did not give), sectioned for text (xml: agent chunks as XML elements, grouped by role)')
        .choices(['default', 'sectioned', 'chat', 'minimal', 'template', 'xml'])
        .default('default'),
    )
    .option('--template <file>', 'template file for --structurer template ({{instructions}}, {{task}}, {{state}}, {{evidence}}, {{context}}, {{custom}}, {{output}})')
    .addOption(new Option('--locale <locale>', 'labels of the default layout').choices(['en', 'zh']))
    .addOption(new Option('--format <format>', 'what to send: one prompt text, OpenAI messages, or an Anthropic { system, messages } request').choices(['text', 'openai', 'anthropic']).default('text'))
    .option('--target-model <id>', 'the model the context is sent to (e.g. claude-opus-4-5): its own signed thinking goes back as thinking, other models\' as text')
    .option('--reasoning-content', 'with --format openai and --target-model: send that model\'s own thinking back as reasoning_content (DeepSeek, Kimi)')
    .option('--strategy <name>', 'fit the history with truncate, compress (summarize the older part) or smart (keep the important turns, summarize the rest)')
    .option('--keep-recent <n>', 'keep at most this many recent turns verbatim', integer('--keep-recent', 0))

const program = (io: Io, exit: (code: number) => void): Command => {
  const root = new Command('gssc')
    .description('Build the context an LLM sees within a token budget, and report what was kept and why.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(visible(s)) })
    .version(version(), '-V, --version', 'print the version')
    .showHelpAfterError(seeHelp('gssc'))

  const build = contextOptions(
    root
      .command('build')
      .description('gather, select, structure and compress a context; print it (or --json)')
      .showHelpAfterError(seeHelp('gssc build')),
  )
    .option('--history <file>', 'conversation so far: a JSON array or JSON Lines of {role, content, timestamp?} (- reads standard input, as for every file)')
    .option('--packets <file>', 'extra packets, JSON Lines of {id?, type, content, timestamp?, source?, metadata?, priority?, relevance?}')
    .option('--session <file>', 'a session file (pi, Claude Code, or the seed JSONL format) as the history')
    .option('--leaf <id>', 'the branch of --session to use (default: the file\'s own; see gssc sessions)')
    .option('--workspace <dir>', 'an agent workspace (AGENTS.md, SOUL.md, memory/, skills/) as the system prompt')
    .option('--media <file...>', 'images sent with the query (jpg, png, gif, webp; with --format openai or anthropic)')
    .option('--chunks <file>', "an agent's chunk memory state (JSON) as the content")
    .option('--json', 'print the output and the full report as JSON')
    .option('--explain', 'after the output, show where the budget went: sections, dropped and cut packets, totals (on stderr)')
    .option('--report <file>', 'write a self-contained HTML report of the build to <file>')
  workspaceOptions(build).action(async (flags: BuildFlags) => exit(await (await import('./build.js')).runBuild(flags, io)))

  root
    .command('sessions')
    .description('list the branches of a session file (leaf ids, length, last message)')
    .showHelpAfterError(seeHelp('gssc sessions'))
    .argument('<file>', 'a pi, Claude Code or seed-format JSONL session')
    .option('--json', 'print the branches as JSON')
    .option('--subagents', 'also list the subagent runs inside a Claude Code transcript (old inline sidechains)')
    .action(async (file: string, flags: { json?: boolean; subagents?: boolean }) => exit(await (await import('./sessions.js')).runSessions(file, flags, io)))

  contextOptions(
    root
      .command('batch')
      .description('build the context of every session file in a folder (or matching a glob), one JSON line each (the report of build --json), on a pool of workers')
      .showHelpAfterError(seeHelp('gssc batch'))
      .argument('<dir or glob>', 'a folder (every .jsonl below it) or a glob such as "runs/**/*.jsonl"'),
  )
    .option('--threads <n>', 'workers (default: one per core)', integer('--threads', 1))
    .action(async (pattern: string, flags: BatchFlags) => exit(await (await import('./batch.js')).runBatch(pattern, flags, io)))

  const workspace = root.command('workspace').description('agent workspaces')
  workspace
    .command('init')
    .description('write a small starter workspace (never overwrites a file)')
    .argument('<dir>', 'where to create it')
    .action(async (dir: string) => exit(await (await import('./workspace.js')).runWorkspaceInit(dir, io)))
  workspaceOptions(
    workspace
      .command('prompt')
      .description("print a workspace's system prompt exactly as built (with --nanobot-version: as that nanobot release builds it)")
      .showHelpAfterError(seeHelp('gssc workspace prompt'))
      .argument('<dir>', 'the workspace folder')
      .option('-m, --model <name>', 'model or encoding that picks the tokenizer', model, 'gpt-4o')
      .option('--max-tokens <n>', 'token budget of the prompt (default 32000; none with --nanobot-version)', integer('--max-tokens', 1))
      .option('--json', 'print the prompt and the report of its parts as JSON'),
  ).action(async (dir: string, flags: PromptFlags) => exit(await (await import('./workspace.js')).runWorkspacePrompt(dir, flags, io)))
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
