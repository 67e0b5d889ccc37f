// Writes the README's diagnostics table from the registry (generator/diagnostics/codes.ts), between its marker
// comments. Why: the table is documentation of the codes; generating it keeps one source of truth, and a test
// (test/generator/diagnostics/code-table.test.ts) fails when the README is not current. Run through
// `npm run docs:diagnostics`, which transpiles the toolkit first (this script imports dist/).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const { withDiagnosticsTable, TABLE_START, TABLE_END } = await import(
  new URL('../dist/generator/diagnostics/code-table.js', import.meta.url).href
);
const readme = readFileSync(readmePath, 'utf8');
const updated = withDiagnosticsTable(readme);
if (updated === null) {
  process.stderr.write(`docs:diagnostics: README.md has no ${TABLE_START} … ${TABLE_END} markers.\n`);
  process.exitCode = 1;
} else if (updated === readme) {
  process.stdout.write('docs:diagnostics: README.md is up to date.\n');
} else {
  writeFileSync(readmePath, updated);
  process.stdout.write('docs:diagnostics: README.md diagnostics table written.\n');
}
