/**
 * The code compressor: a skeleton of a source file (imports, signatures, exported names)
 * with bodies elided, for TypeScript/JavaScript (the compiler's parser) and Python (an
 * indentation heuristic). It declines when the language front end cannot read the text.
 *
 * @module
 */
import type { Tokenizer } from '../../tokenize/tokenizer.js'
import { linesOf, withoutGutter } from './lines.js'
import { declined, type CodeLanguage, type ContentCompressor, type ContentResult } from './model.js'
import { pythonOutline } from './python.js'
import { fitSkeleton } from './skeleton.js'
import { requireTypeScript, typescriptOutline, type TypeScriptModule } from './typescript.js'

// -------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------

/**
 * The code compressor for one language (`jsx` parses `.tsx`/`.jsx` syntax). TypeScript and
 * JavaScript need the `typescript` module: the one given, else (on Node) the installed one;
 * `false` never loads it. Without it they decline.
 *
 * @example
 * compressCode('typescript')(source, 300, tokenizer) // imports and signatures, bodies elided
 * @category compressors
 * @since 0.1.0
 */
export const compressCode =
  (language: CodeLanguage, options: { readonly jsx?: boolean; readonly typescript?: TypeScriptModule | false | undefined } = {}): ContentCompressor =>
  (text: string, targetTokens: number, counter: Tokenizer): ContentResult => {
    const lines = linesOf(text)
    // analyse the lines without a read tool's line-number gutter, render the originals
    const bare = withoutGutter(lines)
    if (language === 'python') return fitSkeleton(lines, pythonOutline(bare), '#', targetTokens, counter)
    const typescript = options.typescript === false ? undefined : (options.typescript ?? requireTypeScript())
    return typescript === undefined
      ? declined('TypeScript/JavaScript needs the `typescript` module: install it, or pass it as the typescript option (await loadTypeScript())')
      : fitSkeleton(lines, typescriptOutline(typescript, bare.join('\n'), options.jsx ?? false), '//', targetTokens, counter)
  }
