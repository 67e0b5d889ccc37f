/**
 * Runs one input through everything a build does with it (compile, cross-file checks, emit, text and JSON
 * rendering) and checks what must hold for any input: no exception, no internal error (SOP090), diagnostics with
 * registered codes, real positions and a remediation, at most the per-file cap, and output exactly when the file
 * has no error. The compiler is loaded from a given `dist/generator` folder, so the fuzzer can also be pointed at
 * another build (an older commit) to show what it finds there.
 */
import { pathToFileURL } from 'node:url';
import type { planBuild } from '../generator/project/plan-build.js';
import type { DIAGNOSTIC_CODES } from '../generator/diagnostics/codes.js';
import type { toValidationResult } from '../generator/diagnostics/render-json.js';
import type { renderDiagnostics } from '../generator/diagnostics/render-text.js';
import { LIMITS } from '../generator/limits.js';

export interface Compiler {
  readonly planBuild: typeof planBuild;
  readonly renderDiagnostics: typeof renderDiagnostics;
  readonly toValidationResult: typeof toValidationResult;
  readonly codes: typeof DIAGNOSTIC_CODES;
}

/** The compiler of a transpiled `dist/generator` folder. */
export async function loadCompiler(generatorDir: string): Promise<Compiler> {
  const load = (path: string) => import(pathToFileURL(`${generatorDir}/${path}`).href);
  const [build, text, json, codes] = await Promise.all([
    // An older build's dist (before the plan had its name) is loaded under its old one.
    load('project/plan-build.js').catch(() => load('build-project.js')),
    load('diagnostics/render-text.js'),
    load('diagnostics/render-json.js'),
    load('diagnostics/codes.js'),
  ]);
  return {
    planBuild: build.planBuild ?? build.buildProject,
    renderDiagnostics: text.renderDiagnostics,
    toValidationResult: json.toValidationResult,
    codes: codes.DIAGNOSTIC_CODES,
  };
}

export interface Outcome {
  /** Null when every property held; otherwise what went wrong. */
  readonly problem: string | null;
  readonly ms: number;
  readonly diagnostics: number;
  /** Whether the file was emitted (it had no error). */
  readonly built: boolean;
}

/** Diagnostics one file may report: the per-file cap, its final SOP091, and the two cross-file checks. */
const MAX_PER_FILE = LIMITS.diagnosticsPerFile + 1 + 2;
const FILE = 'sops/fuzz.md';

export async function runInput(compiler: Compiler, text: string): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const build = await compiler.planBuild([{ file: FILE, raw: text }]);
    const rendered = compiler.renderDiagnostics(build.diagnostics, { sources: new Map([[FILE, text]]) });
    const result = compiler.toValidationResult(build.diagnostics, { seconds: 0, scope: 'fuzz', version: '0', now: new Date(0) });
    const built = build.outputs.some((f) => f.path.endsWith('/graph.ts'));
    const problem = violation(compiler, text, build, rendered, result.status, built);
    return { problem, ms: elapsed(), diagnostics: build.diagnostics.length, built };
  } catch (error) {
    return {
      problem: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      ms: elapsed(),
      diagnostics: 0,
      built: false,
    };
  }
}

function violation(
  compiler: Compiler,
  text: string,
  build: Awaited<ReturnType<Compiler['planBuild']>>,
  rendered: string,
  status: string,
  built: boolean,
): string | null {
  let lineCount = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lineCount++;
  }
  const errors = build.diagnostics.filter((d) => d.severity === 'error');
  for (const d of build.diagnostics) {
    const where = `${d.code} at ${d.line}:${d.column}`;
    if (d.code === 'SOP090') return `internal error: ${d.message}`;
    if (!(d.code in compiler.codes)) return `unregistered code ${where}`;
    if (d.file !== FILE || d.line < 1 || d.line > lineCount || d.column < 1)
      return `position outside the file: ${where} (${lineCount} lines)`;
    if (!d.remediation) return `no remediation: ${where}`;
  }
  if (build.diagnostics.length > MAX_PER_FILE) return `${build.diagnostics.length} diagnostics for one file`;
  if (built === errors.length > 0) return built ? 'emitted a file with errors' : 'a file without errors was not emitted';
  if ((status === 'fail') !== errors.length > 0) return `JSON status ${status} with ${errors.length} errors`;
  if (build.diagnostics.length > 0 && !rendered.includes(build.diagnostics[0]!.code)) return 'text rendering lost a diagnostic';
  return null;
}
