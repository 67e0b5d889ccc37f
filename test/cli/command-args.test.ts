/**
 * Every `sop` command reads its flags with the one reader, `cli/command-args.ts`, and so answers alike: `--help` is
 * the usage on stderr, exit 0; an unknown flag is `sop <command>: <problem>` then the usage, on stderr, exit 2. Run
 * through the real CLI; the commands are read from `cli/main.ts`, so a new one is held to it too. And no command
 * calls node:util's parseArgs itself.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { duration, parseCommandArgs, readCommandArgs, wholeNumber } from '../../cli/command-args.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';

/** The commands `cli/main.ts` dispatches, and the subcommands with flags of their own. */
function commands(): string[] {
  const main = readFileSync(join(PROJECT_ROOT, 'cli/main.ts'), 'utf8');
  const top = [...main.matchAll(/case '([a-z-]+)':\s*return \(await import/g)].map((match) => match[1] as string);
  return [...top, 'runs migrate', 'runs report'];
}

describe('every sop command', () => {
  // A folder of its own: nothing a command might do there (none should: they stop at the flags) touches this checkout.
  const dir = mkdtempSync(join(tmpdir(), 'sop-command-args-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is found in cli/main.ts', () => {
    expect(commands()).toEqual(expect.arrayContaining(['init', 'build', 'serve', 'runs', 'lsp', 'preview', 'runs migrate']));
    expect(commands().length).toBeGreaterThanOrEqual(14);
  });

  it.each(commands())('sop %s answers --help with its usage on stderr (exit 0) and an unknown flag with exit 2', (command) => {
    const words = command.split(' ');
    const help = runCli([...words, '--help'], dir);
    expect(help, help.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(help.stderr).toMatch(new RegExp(`^Usage: sop ${command}\\b`));
    const usage = help.stderr.split('\n')[0] as string;
    const wrong = runCli([...words, '--no-such-flag'], dir);
    expect(wrong, wrong.stderr).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toMatch(new RegExp(`^sop ${command}: .*--no-such-flag`));
    expect(wrong.stderr).toContain(`\n\n${usage}\n`);
  });
});

describe('the one flag reader', () => {
  it('is the only importer of node:util parseArgs under cli/', () => {
    const files = (readdirSync(join(PROJECT_ROOT, 'cli'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.split('\\').join('/'));
    expect(files).toContain('commands/serve.ts');
    const importers = files.filter((file) => {
      const text = readFileSync(join(PROJECT_ROOT, 'cli', file), 'utf8');
      return /import\s*\{[^}]*\bparseArgs\b[^}]*\}\s*from\s*['"](node:)?util['"]/.test(text) || /\.parseArgs\b/.test(text);
    });
    expect(importers).toEqual(['command-args.ts']);
  });

  const config = {
    allowPositionals: true,
    options: { port: { type: 'string' }, open: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  } as const;

  it('reads values, asks for help, and names the argument it refused', () => {
    expect(parseCommandArgs(['--port', '80', 'a.md'], config)).toMatchObject({ values: { port: '80' }, positionals: ['a.md'] });
    expect(parseCommandArgs(['-h'], config)).toBe('help');
    expect(parseCommandArgs(['--verbose=1'], config)).toMatchObject({
      problem: expect.stringContaining('--verbose'),
      unknown: '--verbose=1',
    });
    expect(parseCommandArgs(['--port'], config)).toMatchObject({ missingValue: '--port' });
    expect(parseCommandArgs(['--port', '--open'], config)).toMatchObject({ missingValue: '--port' });
    // A boolean given a value is refused by parseArgs's own words, and nothing later is blamed for it.
    expect(parseCommandArgs(['--open=yes', '--verbose'], config)).toEqual({ problem: "Option '--open' does not take an argument" });
  });

  it('prints the usage for --help (exit 0) and the problem then the usage for bad usage (exit 2), on stderr', () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const command = { name: 'preview', usage: 'Usage: sop preview\n' };
    try {
      expect(readCommandArgs(command, ['--help'], config)).toBe(0);
      expect(readCommandArgs(command, ['--nope'], config)).toBe(2);
    } finally {
      stderr.mockRestore();
    }
    expect(written.join('')).toMatch(/^Usage: sop preview\nsop preview: Unknown option '--nope'.*\n\nUsage: sop preview\n$/s);
  });

  it('reads whole numbers in a range and durations', () => {
    expect([wholeNumber('0', 0, 65535), wholeNumber('65535', 0, 65535), wholeNumber('8080', 1)]).toEqual([0, 65535, 8080]);
    expect(['70000', '-1', '1e3', '0x50', ' 80', '', undefined].map((text) => wholeNumber(text, 0, 65535))).toEqual(
      Array(7).fill(undefined),
    );
    expect(['90s', '30m', '24h', '7d', '500', '500ms'].map(duration)).toEqual([90_000, 1_800_000, 86_400_000, 604_800_000, 500, 500]);
    expect(['0s', 'soon', '-5m', '1w'].map(duration)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
