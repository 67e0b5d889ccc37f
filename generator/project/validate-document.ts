/**
 * One SOP document checked as the build checks the file of that name, answered as seed 003's standard validation
 * result (the JSON of `sop build --format json`): what the server's `inspect` validate view answers. The runtime
 * never imports the compiler: whoever assembles a server (`sop serve`) hands it this function, loaded on first use.
 */
import type { ValidationResult } from '../../contract/diagnostic.js';
import { toValidationResult } from '../diagnostics/render-json.js';
import { compileDocument } from './compile-document.js';

/** The version of the validation result format (seed 003), as `sop build --format json` writes it. */
const RESULT_VERSION = '1.0.0';

/** The diagnostics of `markdown` compiled as `file`, with the agent and source hash; `execution_time` is the compile's. */
export function validateDocument(file: string, markdown: string, now: Date): ValidationResult {
  const started = performance.now();
  const { compiled } = compileDocument(file, markdown);
  return toValidationResult(compiled.diagnostics, {
    seconds: (performance.now() - started) / 1000,
    scope: `sop:${file}`,
    version: RESULT_VERSION,
    now,
    extra: { agent: compiled.model?.agent ?? null, source_hash: compiled.sourceHash },
  });
}
