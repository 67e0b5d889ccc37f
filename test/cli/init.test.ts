/**
 * `sop init` on real folders: what it creates in a fresh app (and that the example SOP compiles clean), that a
 * second run changes nothing, that it never overwrites a script, a server entry or a SOP folder, that edited
 * JSON files keep their indentation, and that a file it cannot parse is left untouched and reported.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INIT_SCRIPTS, MCP_SERVER_ENTRY } from '../../cli/commands/init.js';
import { runCli } from '../support/run-cli.js';

let app: string;
const read = (file: string) => readFileSync(join(app, file), 'utf8');
const json = (file: string) => JSON.parse(read(file));

beforeEach(() => {
  app = mkdtempSync(join(tmpdir(), 'sop-init-'));
});
afterEach(() => rmSync(app, { recursive: true, force: true }));

describe('sop init', () => {
  it('in a fresh app: creates the example SOP, the scripts and .mcp.json; the example compiles without a warning', () => {
    writeFileSync(join(app, 'package.json'), '{\n  "name": "fresh",\n  "version": "1.0.0"\n}\n');
    const init = runCli(['init'], app);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^sop init: created\n {2}sops\/example_support\.md/);
    expect(json('package.json')).toEqual({ name: 'fresh', version: '1.0.0', scripts: INIT_SCRIPTS });
    expect(json('.mcp.json')).toEqual({ mcpServers: { sop: MCP_SERVER_ENTRY } });

    const build = runCli(['build'], app);
    expect(build.code, build.stdout).toBe(0);
    expect(build.stdout).toContain('1 SOP, 0 errors, 0 warnings');
    expect(build.stdout).not.toContain('info');
  });

  it('run twice, changes nothing and says everything was left alone', () => {
    writeFileSync(join(app, 'package.json'), '{"name":"twice"}');
    expect(runCli(['init'], app).code).toBe(0);
    const files = ['package.json', '.mcp.json', 'sops/example_support.md'].map(read);
    const again = runCli(['init'], app);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('created');
    expect(again.stdout).toContain('left alone');
    expect(['package.json', '.mcp.json', 'sops/example_support.md'].map(read)).toEqual(files);
  });

  it('never overwrites: existing scripts, servers and SOPs stay; only what is missing is added, in the file’s own indentation', () => {
    writeFileSync(join(app, 'package.json'), '{\n\t"name": "busy",\n\t"scripts": {\n\t\t"build:sops": "my-own-build"\n\t}\n}');
    writeFileSync(join(app, '.mcp.json'), '{\n    "mcpServers": {\n        "other": { "command": "other-server" }\n    }\n}\n');
    mkdirSync(join(app, 'sops'));
    writeFileSync(join(app, 'sops', 'mine.md'), '# my SOP');
    const init = runCli(['init'], app);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('package.json script "build:sops": already "my-own-build"');
    expect(init.stdout).toContain('sops/: already has 1 SOP');

    const pkg = read('package.json');
    expect(pkg.startsWith('{\n\t"name": "busy",\n\t"scripts": {\n\t\t"build:sops": "my-own-build",\n\t\t"check:sops"')).toBe(true);
    expect(pkg.endsWith('}')).toBe(true);
    expect(read('.mcp.json').startsWith('{\n    "mcpServers": {\n        "other": {\n            "command": "other-server"')).toBe(true);
    expect(json('.mcp.json').mcpServers).toEqual({ other: { command: 'other-server' }, sop: MCP_SERVER_ENTRY });
    expect(readdirSync(join(app, 'sops'))).toEqual(['mine.md']);

    writeFileSync(join(app, '.mcp.json'), '{"mcpServers":{"sop":{"command":"custom"}}}');
    const again = runCli(['init'], app);
    expect(again.stdout).toContain('.mcp.json server "sop": already configured');
    expect(json('.mcp.json').mcpServers.sop).toEqual({ command: 'custom' });
  });

  it('leaves a file it cannot parse untouched, reports it, still does the rest, and exits 1', () => {
    writeFileSync(join(app, 'package.json'), '{"name":"broken-mcp"}\n');
    writeFileSync(join(app, '.mcp.json'), '{ "mcpServers": { // a comment\n } }');
    const init = runCli(['init'], app);
    expect(init.code).toBe(1);
    expect(init.stdout).toMatch(/could not update\n {2}\.mcp\.json: is not valid JSON \(.+\); left untouched/);
    expect(read('.mcp.json')).toBe('{ "mcpServers": { // a comment\n } }');
    expect(json('package.json').scripts).toEqual(INIT_SCRIPTS);
    expect(existsSync(join(app, 'sops', 'example_support.md'))).toBe(true);
  });

  it('needs a package.json, and takes no options', () => {
    const none = runCli(['init'], app);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no package.json here or above');
    expect(existsSync(join(app, 'sops'))).toBe(false);
    writeFileSync(join(app, 'package.json'), '{}');
    expect(runCli(['init', '--force'], app).code).toBe(2);
  });
});
