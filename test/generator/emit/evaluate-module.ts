/**
 * Evaluates one generated module the way a consumer would see it: transpiled by `typescript` itself (not by
 * the test runner's transform), written to a temp folder of its own, imported. Relative imports resolve to
 * `siblings` (e.g. `{ 'ids.js': idsText }` for a graph module), transpiled the same way; nothing else can be
 * imported (no packages), so this is for graph and ids modules and literals.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

let dir: string | undefined;
let count = 0;

function transpile(source: string): string {
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  if (diagnostics && diagnostics.length > 0) {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText, '\n'));
  }
  return outputText;
}

export async function evaluateModule(source: string, siblings: Readonly<Record<string, string>> = {}): Promise<Record<string, unknown>> {
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'sop-eval-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  }
  const folder = join(dir, `module-${count++}`);
  mkdirSync(folder);
  for (const [name, text] of Object.entries(siblings)) writeFileSync(join(folder, name), transpile(text));
  const file = join(folder, 'main.js');
  writeFileSync(file, transpile(source));
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Removes the temp folder; call from `afterAll`. */
export function removeEvaluatedModules(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
