// Writes the diagnostics table of docs/diagnostics.md from the registry (generator/diagnostics/codes.ts), between its
// marker comments. Why: the table is documentation of the codes; generating it keeps one source of truth, and a test
// (test/generator/diagnostics/code-table.test.ts) fails when the page is not current. The registry links each rule as
// `docs/sop-format.md#…`, from the repository's root; the page sits beside sop-format.md, so its links drop `docs/`.
// Run through `npm run docs:diagnostics`, which transpiles the toolkit first (this script imports dist/).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pagePath = fileURLToPath(new URL('../docs/diagnostics.md', import.meta.url));
const { withDiagnosticsTable, TABLE_START, TABLE_END } = await import(
  new URL('../dist/generator/diagnostics/code-table.js', import.meta.url).href
);
const page = readFileSync(pagePath, 'utf8');
const updated = withDiagnosticsTable(page)?.replaceAll('](docs/sop-format.md#', '](sop-format.md#') ?? null;
if (updated === null) {
  process.stderr.write(`docs:diagnostics: docs/diagnostics.md has no ${TABLE_START} … ${TABLE_END} markers.\n`);
  process.exitCode = 1;
} else if (updated === page) {
  process.stdout.write('docs:diagnostics: docs/diagnostics.md is up to date.\n');
} else {
  writeFileSync(pagePath, updated);
  process.stdout.write('docs:diagnostics: docs/diagnostics.md diagnostics table written.\n');
}
