/**
 * The runtime never imports the compiler statically (ARCHITECTURE.md): a server must start without loading
 * markdown parsers. The one exception is `inspect`'s validate view, whose compiler `sop serve` hands to the server
 * as a dynamic import made on the view's first call. Checked on the source: every static import of every module the
 * server is made of.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './helpers/fixture-process.js';

const SERVER_SOURCES = ['runtime', 'contract', 'cli/commands/serve.ts'];
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(path: string): string[] {
  const full = join(PROJECT_ROOT, path);
  if (full.endsWith('.ts')) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string, pattern: RegExp): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(pattern)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(PROJECT_ROOT, resolve(dirname(file), specifier)));
}

describe('what the server is made of', () => {
  const files = SERVER_SOURCES.flatMap(sources);

  it('imports nothing of the compiler statically', () => {
    expect(files.length).toBeGreaterThan(30);
    const offending = files.flatMap((file) =>
      importsOf(file, STATIC_IMPORT)
        .filter((target) => target.startsWith('generator/'))
        .map((target) => `${relative(PROJECT_ROOT, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('loads the compiler only for the validate view, on demand', () => {
    const dynamic = files.flatMap((file) =>
      importsOf(file, DYNAMIC_IMPORT)
        .filter((target) => target.startsWith('generator/'))
        .map((target) => `${relative(PROJECT_ROOT, file)} → ${target}`),
    );
    expect(dynamic).toEqual(['cli/commands/serve.ts → generator/project/validate-document.js']);
  });
});
