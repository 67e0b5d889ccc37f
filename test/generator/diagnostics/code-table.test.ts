/**
 * The documentation of the diagnostic codes is current: docs/diagnostics.md's table is exactly what the registry gives
 * (`npm run docs:diagnostics` rewrites it, its links made relative to docs/), and every code's docs anchor is a
 * section of docs/sop-format.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../../generator/diagnostics/codes.js';
import { diagnosticsTable, TABLE_END, TABLE_START, withDiagnosticsTable } from '../../../generator/diagnostics/code-table.js';
import { scanBlocks } from '../../../generator/parse/markdown/scan-blocks.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

describe('diagnostics documentation', () => {
  it('docs/diagnostics.md holds the table the registry gives (run npm run docs:diagnostics)', () => {
    const page = read('docs/diagnostics.md');
    /** The registry links rules from the repository's root; the page sits beside docs/sop-format.md. */
    const besideFormat = (text: string | null) => text?.replaceAll('](docs/sop-format.md#', '](sop-format.md#');
    expect(besideFormat(withDiagnosticsTable(page))).toBe(page);
    const between = page.slice(page.indexOf(TABLE_START) + TABLE_START.length, page.indexOf(TABLE_END));
    expect(between.trim()).toBe(besideFormat(diagnosticsTable()));
  });

  it('has one row per code, with pipes escaped', () => {
    const rows = diagnosticsTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(DIAGNOSTIC_CODES).length);
    expect(rows.find((r) => r.startsWith('| SOP043 '))).toContain('(`-->\\|yes\\|`, `-->\\|no\\|`)');
  });

  it('points every code at a section of docs/sop-format.md that exists', () => {
    const doc = read('docs/sop-format.md');
    const anchors = new Set(scanBlocks(doc).blocks.flatMap((b) => (b.kind === 'heading' ? [anchorOf(b.text)] : [])));
    const missing = Object.entries(DIAGNOSTIC_CODES).filter(([, info]) => !anchors.has(info.docs));
    expect(missing).toEqual([]);
  });

  it('gives every code a one-line title and a remediation', () => {
    for (const [code, info] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(info.title, code).toMatch(/^\S.*\.$/);
      expect(info.remediation, code).toMatch(/^\S.*\.$/);
    }
  });
});
