/**
 * `sop.config.json`: parsing (every way it can be wrong names the file, the key and the valid keys), the
 * precedence flag > file > default, and `build` and `serve` following it from the app root, from a subfolder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig, readConfig, resolveProjectPaths } from '../../cli/config.js';
import { listFiles } from '../../generator/write/compare-outputs.js';
import { conversation, jsonRpcLines, runStdio } from '../runtime/helpers/stdio-process.js';
import { BASE_SOP } from '../support/sop-text.js';
import { CLI, runCli } from '../support/run-cli.js';

describe('parseConfig', () => {
  it.each([
    ['{}', DEFAULT_CONFIG],
    ['{"sops": "agents"}', { sops: 'agents', out: 'generated' }],
    ['{"$schema": "x.json", "sops": "a", "out": "src/generated"}', { sops: 'a', out: 'src/generated' }],
    ['{"paths": true}', { ...DEFAULT_CONFIG, paths: true }],
    ['{"paths": false}', DEFAULT_CONFIG],
  ])('%s → %j', (text, config) => {
    expect(parseConfig(text)).toEqual({ ok: true, config });
  });

  it.each([
    ['{"sops": "a",}', /^sop\.config\.json is not valid JSON: /],
    ['["sops"]', /^sop\.config\.json must hold a JSON object/],
    ['null', /^sop\.config\.json must hold a JSON object/],
    ['{"sop": "a", "output": "b"}', /^sop\.config\.json: unknown key "sop", "output" \(valid keys: sops, out, paths\)$/],
    ['{"paths": "yes"}', /^sop\.config\.json: "paths" must be true or false, got "yes"$/],
    ['{"out": 3}', /^sop\.config\.json: "out" must be a folder path \(a non-empty string\), got 3$/],
    ['{"sops": " "}', /^sop\.config\.json: "sops" must be a folder path/],
  ])('%s is refused', (text, message) => {
    const read = parseConfig(text);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toMatch(message);
  });

  it('flags win over the file, the file over the defaults; paths resolve from the root', () => {
    const config = { sops: 'agents', out: 'gen' };
    expect(resolveProjectPaths('/app', config, {})).toEqual({ root: '/app', sopsDir: '/app/agents', outDir: '/app/gen', paths: false });
    expect(resolveProjectPaths('/app', config, { out: 'elsewhere' })).toEqual({
      root: '/app',
      sopsDir: '/app/agents',
      outDir: '/app/elsewhere',
      paths: false,
    });
    expect(resolveProjectPaths('/app', { ...config, paths: true }, {}).paths).toBe(true);
    expect(resolveProjectPaths('/app', config, { paths: true }).paths).toBe(true);
    expect(resolveProjectPaths('/app', DEFAULT_CONFIG, {}).outDir).toBe('/app/generated');
  });
});

describe('sop.config.json in an app', () => {
  let app: string;
  beforeEach(() => {
    app = mkdtempSync(join(tmpdir(), 'sop-config-'));
    writeFileSync(join(app, 'package.json'), '{"name":"configured","private":true}\n');
    mkdirSync(join(app, 'agents'));
    mkdirSync(join(app, 'src', 'deep'), { recursive: true });
    writeFileSync(join(app, 'agents', 'demo.md'), BASE_SOP);
  });
  afterEach(() => rmSync(app, { recursive: true, force: true }));

  it('is absent: the defaults, and no sops/ folder is an error naming the folder', () => {
    expect(readConfig(app)).toEqual({ ok: true, config: DEFAULT_CONFIG });
    const build = runCli(['build'], app);
    expect(build.code).toBe(2);
    expect(build.stderr).toContain('no SOP folder at sops');
  });

  it('moves the SOP and output folders for build, --check and serve, run from a subfolder', async () => {
    writeFileSync(join(app, 'sop.config.json'), '{ "sops": "agents", "out": "src/sops" }\n');
    const cwd = join(app, 'src', 'deep');
    const build = runCli(['build'], cwd);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(listFiles(join(app, 'src', 'sops'))).toEqual(expect.arrayContaining(['demo/graph.ts', 'sop-bundle.json']));
    expect(runCli(['build', '--check'], cwd).code).toBe(0);

    const served = await runStdio(process.execPath, [CLI, 'serve'], conversation([{ name: 'load_graph', arguments: { agent: 'demo' } }]), {
      cwd,
    });
    expect(served.exitCode, served.stderr).toBe(0);
    expect(jsonRpcLines(served.stdout).find((message) => message.id === 2)?.result?.structuredContent).toMatchObject({ agent: 'demo' });
  });

  it('is overridden by --sops and --out, for build and serve alike', async () => {
    writeFileSync(join(app, 'sop.config.json'), '{ "sops": "nowhere", "out": "nowhere-out" }\n');
    expect(runCli(['build', '--sops', 'agents', '--out', 'out'], app).code).toBe(0);
    expect(listFiles(join(app, 'out'))).toContain('sop-bundle.json');
    const viaDefault = runCli(['serve'], app);
    expect(viaDefault.code).toBe(1);
    expect(viaDefault.stderr).toContain('nowhere-out/sop-bundle.json does not exist');
    const served = await runStdio(
      process.execPath,
      [CLI, 'serve', '--out', 'out'],
      conversation([{ name: 'load_graph', arguments: { agent: 'demo' } }]),
      {
        cwd: app,
      },
    );
    expect(served.exitCode, served.stderr).toBe(0);
  });

  it('refuses a broken config file in every command, naming the problem', () => {
    writeFileSync(join(app, 'sop.config.json'), '{ "source": "agents" }');
    for (const command of [['build'], ['serve'], ['bundle'], ['init']]) {
      const ran = runCli(command, app);
      expect(ran.code, command[0]).toBe(2);
      expect(ran.stderr).toContain(`sop ${command[0]}: sop.config.json: unknown key "source" (valid keys: sops, out, paths)`);
    }
  });
});
