/**
 * `inspect` view `validate`: checks SOP markdown passed inline with the real compiler (parse → model → check,
 * every rule of the format) and answers seed 003's standard validation result, the same JSON as
 * `sop build --format json`: status pass | warning | fail, a message, details with code, severity, message,
 * line, column and remediation, and metadata. It compiles through the build API's `compileDocument`, as the
 * language server does, so the text compiles exactly as a file of that name would. Nothing is written and nothing
 * is read from disk.
 *
 * The runtime never imports the compiler statically: it is loaded here, on the first call, with a dynamic
 * import (parsing markdown needs unified, remark and yaml, which a server otherwise never loads). A server that
 * should not run the compiler on request (production) leaves the view out (`sop serve --no-validate`).
 */
import { z } from 'zod';
import type { ValidationResult } from '../../../contract/diagnostic.js';
import { EMPTY_RUN_STATE } from '../../store/run-store.js';
import { fail, succeed } from '../tool-outcome.js';
import type { RunlessView } from './inspect-view.js';

/** Larger than any real SOP (the toolkit's own are under 20 KB), small enough to check in milliseconds. */
export const MAX_MARKDOWN = 256 * 1024;
export const DEFAULT_FILE = 'sops/inline.md';
/** The version of the validation result format (seed 003), as `sop build --format json` writes it. */
const RESULT_VERSION = '1.0.0';

const validationAnswer = z.object({
  status: z.enum(['pass', 'warning', 'fail']),
  message: z.string(),
  details: z.array(
    z.object({
      severity: z.enum(['critical', 'warning', 'info']),
      code: z.string(),
      message: z.string(),
      file: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      endLine: z.number().int().optional(),
      endColumn: z.number().int().optional(),
      remediation: z.string().optional(),
    }),
  ),
  metadata: z.looseObject({ execution_time: z.number(), scope: z.string(), version: z.string(), timestamp: z.string() }),
});

export const validateView: RunlessView = {
  name: 'validate',
  summary: 'validate: check SOP `markdown` (a whole .md file; `file` names it in positions) and list its problems; needs no run',
  fields: {
    markdown: z.string().min(1).max(MAX_MARKDOWN).describe('validate: the SOP file text'),
    file: z.string().min(1).max(300).optional().describe(`validate: its project path (default ${DEFAULT_FILE})`),
  },
  required: ['markdown'],
  answer: validationAnswer,
  async runless(input, { now }) {
    const file = input.file ?? DEFAULT_FILE;
    let compiler: Awaited<ReturnType<typeof loadCompiler>>;
    try {
      compiler = await loadCompiler();
    } catch (error) {
      return fail(EMPTY_RUN_STATE, {
        error: `Validation needs the SOP compiler, which this installation cannot load (${error instanceof Error ? error.message : String(error)}).`,
      });
    }
    const started = performance.now();
    const { compiled } = compiler.compileDocument(file, input.markdown ?? '');
    const result: ValidationResult = compiler.toValidationResult(compiled.diagnostics, {
      seconds: (performance.now() - started) / 1000,
      scope: `sop:${file}`,
      version: RESULT_VERSION,
      now: new Date(now()),
      extra: { agent: compiled.model?.agent ?? null, source_hash: compiled.sourceHash },
    });
    return succeed(result, EMPTY_RUN_STATE);
  },
};

async function loadCompiler() {
  const [{ compileDocument }, { toValidationResult }] = await Promise.all([
    import('../../../generator/build/compile-document.js'),
    import('../../../generator/diagnostics/render-json.js'),
  ]);
  return { compileDocument, toValidationResult };
}
