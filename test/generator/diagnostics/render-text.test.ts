/** The text rendering: frames that point at the right character, whatever the line endings or the line length. */
import { describe, expect, it } from 'vitest';
import { diagnosticAt } from '../../../generator/diagnostics/diagnostic.js';
import { renderDiagnostics, summarize } from '../../../generator/diagnostics/render-text.js';

const at = (line: number, column: number, endColumn?: number) =>
  diagnosticAt('sops/x.md', 'SOP020', endColumn ? { start: { line, column }, end: { line, column: endColumn } } : { line, column }, 'Bad.');
const render = (text: string, ...ds: ReturnType<typeof at>[]) => renderDiagnostics(ds, { sources: new Map([['sops/x.md', text]]) });

describe('renderDiagnostics', () => {
  it('shows the line before, the line, and a caret under the span, with the remediation', () => {
    expect(render('one\ntwo\n\tthree four\n', at(3, 8, 12))).toBe(
      [
        'sops/x.md:3:8 error SOP020 Bad.',
        ' 2 | two',
        ' 3 | \tthree four',
        '   | \t      ^^^^',
        '  help: Use the id of a flowchart node (the message names the closest one), or add the node to the flowchart.',
      ].join('\n'),
    );
  });

  it('reads CRLF, CR and a BOM like the compiler does', () => {
    for (const text of ['\uFEFFa\r\nb\r\nc target', 'a\rb\rc target']) {
      expect(render(text, at(3, 3)).split('\n').slice(1, 4)).toEqual([' 2 | b', ' 3 | c target', '   |   ^']);
    }
  });

  it('shows a window of a long line around the column', () => {
    const line = `${'x'.repeat(500_000)}TARGET${'y'.repeat(500_000)}`;
    const [, frame, caret] = render(line, at(1, 500_001, 500_007)).split('\n');
    expect(frame!.length).toBeLessThan(140);
    expect(frame).toMatch(/^ 1 \| …x{40}TARGETy+…$/);
    expect(caret!.indexOf('^')).toBe(frame!.indexOf('TARGET'));
    expect(caret).toMatch(/\^{6}$/);
  });

  it('renders thousands of diagnostics of one file', () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n');
    const out = render(text, ...Array.from({ length: 30_000 }, (_, i) => at(i + 1, 1)));
    expect(out.split('\n\n')).toHaveLength(30_000);
    expect(out).toContain(' 30000 | line 29999');
  });

  it('summarizes the counts', () => {
    expect(summarize([at(1, 1), diagnosticAt('f', 'SOP045', { line: 1, column: 1 }, 'x')])).toBe('1 error, 0 warnings, 1 info');
  });
});
