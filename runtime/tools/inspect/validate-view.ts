/**
 * `inspect` view `validate`: checks SOP markdown passed inline with the real compiler (parse → model → check,
 * every rule of the format) and answers seed 003's standard validation result, the same JSON as
 * `sop build --format json`: status pass | warning | fail, a message, details with code, severity, message,
 * line, column and remediation, and metadata. The text compiles exactly as a file of that name would. Nothing is
 * written and nothing is read from disk.
 *
 * The runtime never imports the compiler: the server is given it (`validator`, see `RunlessContext`) by whoever
 * assembles it, and loads it on the first call (parsing markdown needs unified, remark and yaml, which a server
 * otherwise never loads). A server that should not run the compiler on request (production) leaves the view out
 * (`sop serve --no-validate`).
 */
import { z } from 'zod';
import { EMPTY_RUN_STATE } from '../../store/run-store.js';
import type { ValidateSop } from '../tool-definitions.js';
import { fail, succeed } from '../tool-outcome.js';
import type { RunlessView } from './inspect-view.js';

/** Larger than any real SOP (the toolkit's own are under 20 KB), small enough to check in milliseconds. */
export const MAX_MARKDOWN = 256 * 1024;
export const DEFAULT_FILE = 'sops/inline.md';

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
  async runless(input, { now, validator }) {
    if (validator === undefined) {
      return fail(EMPTY_RUN_STATE, {
        error:
          "Validation needs the SOP compiler, which this server was not given (createSessionService's `validator`; sop serve gives it).",
      });
    }
    let validate: ValidateSop;
    try {
      validate = await validator();
    } catch (error) {
      return fail(EMPTY_RUN_STATE, {
        error: `Validation needs the SOP compiler, which this installation cannot load (${error instanceof Error ? error.message : String(error)}).`,
      });
    }
    return succeed(validate(input.file ?? DEFAULT_FILE, input.markdown ?? '', new Date(now())), EMPTY_RUN_STATE);
  },
};
