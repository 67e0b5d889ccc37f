/**
 * Evaluates one generated module the way a consumer would see it: transpiled by `typescript` itself (not by
 * the test runner's transform), written as `.mjs` to a temp folder, imported. Only for modules without
 * imports of values (graph modules, literals).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

let dir: string | undefined;
let count = 0;

export async function evaluateModule(source: string): Promise<Record<string, unknown>> {
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  if (diagnostics && diagnostics.length > 0) {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText, '\n'));
  }
  dir ??= mkdtempSync(join(tmpdir(), 'sop-eval-'));
  const file = join(dir, `module-${count++}.mjs`);
  writeFileSync(file, outputText);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Removes the temp folder; call from `afterAll`. */
export function removeEvaluatedModules(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
