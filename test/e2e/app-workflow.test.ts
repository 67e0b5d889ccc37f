/**
 * The toolkit as an app gets it, end to end: `npm pack` → a fresh app in a temp folder → install the tarball
 * (offline from npm's cache where it can, install scripts run: nothing is compiled, better-sqlite3 being an
 * optional peer the app installs only if it wants it) → `npx sop init` → a SOP that is not in this repository → `npx sop build` and `--check` →
 * `tsc --noEmit` of app code importing the generated module → `sop paths`, the build's path fixtures walked with
 * `sop-toolkit/testing`, transcripts replayed with `sop replay` → the server started as `.mcp.json` says, driven
 * by the SDK Client over stdio → a prompt edited, rebuilt, the new text served → the same with the one-file
 * server, run from a folder with no node_modules, over HTTP with durable runs on the SQLite built into Node 22.13+
 * (across a restart; on Node 20 it refuses, naming the package to install) → the same output when the toolkit runs from elsewhere, with no
 * machine path in it → serving with the compiler's packages deleted.
 *
 * The steps share one app and run in order, each building on the last, like a user's session.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../generator/write/compare-outputs.js';
import { startLspClient } from '../support/lsp-client.js';
import { nodeHasSqlite } from '../support/sqlite-drivers.js';
import { CLI, PROJECT_ROOT } from '../support/run-cli.js';
import { call, explain, run, withHttpServer, withStdioServer } from './app-process.js';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const INVOICE_SOP = `---
agent: invoice_desk
version: "1"
tools: [get_invoice]
---

## Role
You explain invoices to customers.

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Customer asks about an invoice]) --> ASK["Ask for the invoice number"]
    ASK --> FOUND{Invoice found?}
    FOUND -->|yes| EXPLAIN["Explain the invoice"]
    FOUND -->|no| NOT_FOUND([Not found])
    EXPLAIN --> DONE([Explained])
\`\`\`

## Node Prompts

### ASK
Ask for the invoice number printed at the top right of the invoice.

### EXPLAIN
\`\`\`yaml
tools: [get_invoice]
\`\`\`
Explain each line of the invoice.
`;
const FIRST_PROMPT = 'Ask for the invoice number printed at the top right of the invoice.';

const APP_CODE = `import { createActor } from 'xstate';
import type { SopBundle } from 'sop-toolkit/contract';
import { invoiceDeskMachine, type InvoiceDeskNodeId } from './generated/index.js';
import type { SuccessorOf } from './generated/invoice_desk/ids.js';

const actor = createActor(invoiceDeskMachine).start();
actor.send({ type: 'GOTO.ASK' });
export const asking: boolean = actor.getSnapshot().matches('ASK');
export const first: InvoiceDeskNodeId = 'ASK';
export const next: SuccessorOf<'ASK'> = 'FOUND';
// @ts-expect-error: misspelt node id
export const typo: InvoiceDeskNodeId = 'ASKK';
export type Agents = keyof SopBundle['agents'];
`;

/** Uses the runtime API's declarations (a Node program: needs @types/node, taken from this repository). */
const SERVER_CODE = `import { createCatalog, readBundle } from 'sop-toolkit';
const read = readBundle('generated/sop-bundle.json');
export const agents: number = read.ok ? createCatalog(read.bundle).entries.length : 0;
`;

let work: string;
let app: string;
let tarballFiles: string[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sop-e2e-'));
  app = join(work, 'app');
  mkdirSync(app);
  const packed = run('npm', ['pack', '--json', '--pack-destination', work], PROJECT_ROOT, 180_000);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${explain(packed)}`);
  const [pack] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  if (pack === undefined) throw new Error(`npm pack printed no result: ${explain(packed)}`);
  tarballFiles = pack.files.map((file) => file.path);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'e2e-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  const installed = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, pack.filename)], app, 180_000);
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${explain(installed)}`);
}, 400_000);

/** Every file under `dir` whose path matches `pattern` (relative paths). */
function findFiles(dir: string, pattern: RegExp): string[] {
  return listFiles(dir).filter((path) => pattern.test(path));
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const sop = (...parts: string[]) => join(app, ...parts);
const npx = (...args: string[]) => run('npx', ['--no', 'sop', ...args], app);
const editPrompt = (from: string, to: string) => {
  const file = sop('sops', 'invoice_desk.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
};

/** load_graph of the app's agent, then the legal moves START → ASK; the prompt ASK is served with. */
async function askPrompt(client: Client): Promise<string> {
  const graph = await call(client, 'load_graph', { agent: 'invoice_desk' });
  expect(graph).toMatchObject({ agent: 'invoice_desk', entry_node: 'START' });
  expect(await call(client, 'goto_node', { node_id: 'START' })).toMatchObject({ valid: true });
  const ask = await call(client, 'goto_node', { node_id: 'ASK' });
  expect(ask).toMatchObject({ valid: true, node: { id: 'ASK' } });
  return ask.node.prompt as string;
}

describe('an app that installs the packed toolkit', () => {
  it('gets a package with compiled code, declarations and an exports map, and no tests, fixtures or bench', () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/cli/main.js',
        'dist/types/contract/index.d.ts',
        // The runs page renders flowcharts with the Mermaid build shipped in the package: no CDN.
        'dist/page/page.js',
        'dist/page/mermaid.min.js',
      ]),
    );
    expect(tarballFiles.filter((path) => !/^(dist\/|docs\/[a-z-]+\.md$|package\.json$|README\.md$)/.test(path))).toEqual([]);
    expect(tarballFiles.filter((path) => /(^|\/)(test|tests|fixtures|bench|demo)\//.test(path))).toEqual([]);
    const manifest = JSON.parse(readFileSync(sop('node_modules', 'sop-toolkit', 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.exports)).toEqual(['.', './contract', './testing', './package.json']);
    for (const target of Object.values<{ types: string; default: string }>(manifest.exports).slice(0, 3)) {
      expect(existsSync(sop('node_modules', 'sop-toolkit', target.types))).toBe(true);
      expect(existsSync(sop('node_modules', 'sop-toolkit', target.default))).toBe(true);
    }
  });

  it('installs with scripts on and compiles nothing: no native addon, no better-sqlite3 (an optional peer)', () => {
    expect(existsSync(sop('node_modules', 'sop-toolkit'))).toBe(true);
    expect(existsSync(sop('node_modules', 'better-sqlite3'))).toBe(false);
    // A compiled addon (*.node) or node-gyp's build folder anywhere would mean something was built on install.
    expect(findFiles(sop('node_modules'), /\.node$|(^|\/)build\/(Release|Debug)\//)).toEqual([]);
    const manifest = JSON.parse(readFileSync(sop('node_modules', 'sop-toolkit', 'package.json'), 'utf8'));
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(manifest.peerDependenciesMeta['better-sqlite3']).toEqual({ optional: true });
  });

  it('npx sop init scaffolds an example SOP, the scripts and the .mcp.json entry', () => {
    const init = npx('init');
    expect(init.code, explain(init)).toBe(0);
    expect(init.stdout).toContain('sops/example_support.md');
    const scripts = JSON.parse(readFileSync(sop('package.json'), 'utf8')).scripts;
    expect(scripts).toMatchObject({ 'build:sops': 'sop build', 'check:sops': 'sop build --check --max-warnings 0' });
    expect(JSON.parse(readFileSync(sop('.mcp.json'), 'utf8')).mcpServers.sop).toEqual({ command: 'npx', args: ['--no', 'sop', 'serve'] });
  });

  it('npx sop build compiles the app’s own SOPs into its generated/, and --check guards it', () => {
    writeFileSync(sop('sops', 'invoice_desk.md'), INVOICE_SOP);
    const build = npx('build');
    expect(build.code, explain(build)).toBe(0);
    expect(listFiles(sop('generated'))).toEqual(
      expect.arrayContaining(['invoice_desk/machine.ts', 'example_support/ids.ts', 'sop-bundle.json']),
    );
    expect(readFileSync(sop('generated', 'invoice_desk', 'ids.ts'), 'utf8')).toMatch(/Regenerate: npm run build:sops/);
    const check = run('npm', ['run', '-s', 'check:sops'], app);
    expect(check.code, explain(check)).toBe(0);
  });

  it('runs the language server from the installed package: the diagnostics of an edited SOP, and a hover', async () => {
    const client = await startLspClient(app, sop('node_modules', 'sop-toolkit', 'dist', 'cli', 'main.js'));
    try {
      const path = sop('sops', 'invoice_desk.md');
      await client.open(path, INVOICE_SOP.replace('### EXPLAIN', '### EXPLAINN'));
      const [diagnostic] = await client.diagnostics(path, 1);
      expect(diagnostic).toMatchObject({ code: 'SOP020', message: expect.stringContaining('Did you mean `EXPLAIN`?') });
      // The code links to the format's documentation the package ships.
      expect(diagnostic?.codeDescription?.href).toBe(
        `${pathToFileURL(sop('node_modules', 'sop-toolkit', 'docs', 'sop-format.md')).href}#node-prompts`,
      );
      const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri: client.uri(path) },
        position: { line: 14, character: 5 }, // FOUND, in `    FOUND -->|yes| EXPLAIN`
      });
      expect(hover.contents.value).toContain('**FOUND** · `rhombus`');
    } finally {
      expect(await client.stop()).toBe(0);
    }
  });

  it('type-checks app code that imports the generated machine and its typed ids, and the runtime API', () => {
    writeFileSync(sop('app.ts'), APP_CODE);
    writeFileSync(sop('server.ts'), SERVER_CODE);
    // The @ts-expect-error in app.ts only means something if a misspelt id really fails: without it, it must.
    writeFileSync(sop('typo.ts'), APP_CODE.replace('// @ts-expect-error: misspelt node id\n', ''));
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      // As `tsc --init` and most apps have it; checking every library's declarations (zod's, the SDK's) costs 5×.
      skipLibCheck: true,
      // server.ts is a Node program; the app has no @types/node of its own, so take this repository's.
      types: ['node'],
      typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')],
    };
    writeFileSync(sop('tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts', 'server.ts', 'typo.ts'] }));
    const tsc = run(process.execPath, [TSC, '-p', 'tsconfig.json'], app);
    const errors = tsc.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors, explain(tsc)).toEqual([
      expect.stringMatching(/^typo\.ts\(11,14\): error TS\d+: Type '"ASKK"' is not assignable to type/),
    ]);
  });

  it('proves adherence in the app: sop paths, the path fixtures walked with sop-toolkit/testing, sop replay for CI', () => {
    const paths = npx('paths', 'invoice_desk');
    expect(paths.code, explain(paths)).toBe(0);
    const listed = JSON.parse(paths.stdout) as { count: { listed: number }; paths: { terminal: string; nodes: string[] }[] };
    expect(listed.paths.map((p) => p.nodes.join(' > ')).sort()).toEqual([
      'START > ASK > FOUND > EXPLAIN > DONE',
      'START > ASK > FOUND > NOT_FOUND',
    ]);
    // The fixtures go to a folder of their own, so the app's generated/ stays as its own build leaves it.
    const fixtures = npx('build', '--paths', '--out', 'adherence');
    expect(fixtures.code, explain(fixtures)).toBe(0);
    writeFileSync(
      sop('walk.mjs'),
      `import { walkGoldenPaths } from 'sop-toolkit/testing';
const report = await walkGoldenPaths({ bundle: 'adherence/sop-bundle.json', agent: 'invoice_desk', paths: 'adherence/invoice_desk/paths.json' });
process.stdout.write(JSON.stringify(report));
`,
    );
    const walked = run(process.execPath, ['walk.mjs'], app);
    expect(walked.code, explain(walked)).toBe(0);
    expect(JSON.parse(walked.stdout)).toEqual({ agent: 'invoice_desk', paths: 2, moves: 9, failures: [] });

    const call = (id: string, name: string, args: object) => ({
      id,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    });
    const moves = (nodes: string[]) =>
      nodes.map((node, i) => ({ role: 'assistant', content: null, tool_calls: [call(`m${i}`, 'goto_node', { node_id: node })] }));
    const lookup = { role: 'assistant', content: null, tool_calls: [call('t1', 'get_invoice', { number: 'INV-7' })] };
    // The app has two agents (sop init's example too): the transcript's load_graph says which one it is about.
    const load = { role: 'assistant', content: null, tool_calls: [call('l', 'load_graph', { agent: 'invoice_desk' })] };
    const good = [load, ...moves(['START', 'ASK', 'FOUND', 'EXPLAIN']), lookup, ...moves(['DONE'])];
    const early = [load, ...moves(['START', 'ASK']), lookup, ...moves(['FOUND', 'EXPLAIN', 'DONE'])];
    writeFileSync(sop('good.json'), JSON.stringify({ messages: good }));
    writeFileSync(sop('early.json'), JSON.stringify({ messages: early }));
    const pass = npx('replay', 'good.json', '--out', 'adherence');
    expect(pass.code, explain(pass)).toBe(0);
    expect(pass.stdout).toMatch(/^PASS {2}score 1\.0000 \(6\/6 steps compliant\)/m);
    const fail = npx('replay', 'early.json', '--out', 'adherence', '--format', 'json');
    expect(fail.code, explain(fail)).toBe(1);
    expect(JSON.parse(fail.stdout)).toMatchObject({
      verdict: 'fail',
      steps: { total: 6, compliant: 5, first_violation: 3 },
      findings: [{ rule: 'tool_not_allowed', step: 3, node: 'ASK', message: 'get_invoice called at ASK, which allows no tools' }],
    });
  });

  it('counts tokens only with the optional tokenizer: without it --report refuses and a budget is a warning, not a crash', () => {
    // A copy of the app's SOP with a budget, in a folder of its own (the app's generated/ stays as its build left it).
    mkdirSync(sop('budgeted'), { recursive: true });
    const budgeted = readFileSync(sop('sops', 'invoice_desk.md'), 'utf8').replace(
      'tools: [get_invoice]\n---',
      'tools: [get_invoice]\ntoken_budget: { node_prompt: 5 }\n---',
    );
    writeFileSync(sop('budgeted', 'invoice_desk.md'), budgeted);
    const build = (...args: string[]) => npx('build', '--sops', 'budgeted', '--out', 'budgeted-out', ...args);

    const refused = build('--report');
    expect(refused.code, explain(refused)).toBe(2);
    expect(refused.stderr).toContain('gpt-tokenizer, which is not installed: npm install --save-dev gpt-tokenizer@4');
    const unchecked = build();
    expect(unchecked.code, explain(unchecked)).toBe(0);
    expect(unchecked.stdout).toMatch(/budgeted\/invoice_desk\.md:5:30 warning SOP058 `token_budget` was not checked: token counts need/);
    // A budget with no limit in it needs no counting, so nothing is left unchecked.
    writeFileSync(sop('budgeted', 'invoice_desk.md'), budgeted.replace('token_budget: { node_prompt: 5 }', 'token_budget: {}'));
    const empty = build();
    expect(empty.code, explain(empty)).toBe(0);
    expect(empty.stdout).toMatch(/0 errors, 0 warnings/);
    writeFileSync(sop('budgeted', 'invoice_desk.md'), budgeted);

    const added = run(
      'npm',
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--save-dev', 'gpt-tokenizer@4.0.0'],
      app,
      180_000,
    );
    expect(added.code, explain(added)).toBe(0);
    const counted = build('--report');
    expect(counted.code, explain(counted)).toBe(0);
    expect(counted.stdout).toMatch(/tokens \(o200k_base\) of invoice_desk: system prompt \d+/);
    expect(counted.stdout).toMatch(
      /warning SOP057 The prompt of `ASK` is \d+ tokens \(o200k\), over `token_budget.node_prompt` \(5, line 5\)/,
    );
    expect(counted.stdout).not.toContain('SOP058');
  });

  it('serves the app’s agent as .mcp.json starts it, and serves an edited prompt after a rebuild', async () => {
    const entry = JSON.parse(readFileSync(sop('.mcp.json'), 'utf8')).mcpServers.sop as { command: string; args: string[] };
    const server = { command: entry.command, args: entry.args, cwd: app };
    expect(await withStdioServer(server, askPrompt)).toBe(FIRST_PROMPT);

    editPrompt(FIRST_PROMPT, 'Ask for the invoice number and the billing month.');
    const stale = npx('build', '--check');
    expect(stale.code, explain(stale)).toBe(1);
    expect(stale.stdout).toContain('stale: generated/invoice_desk/graph.ts');
    const rebuilt = run('npm', ['run', '-s', 'build:sops'], app);
    expect(rebuilt.code, explain(rebuilt)).toBe(0);
    expect(await withStdioServer(server, askPrompt)).toBe('Ask for the invoice number and the billing month.');
  });

  it('bundles a one-file server that runs with no node_modules, stdio and HTTP, and is rebuilt with the SOPs', async () => {
    const deployed = join(work, 'deployed');
    mkdirSync(deployed);
    const bundle = () => {
      const made = npx('bundle', '--out', 'server.mjs');
      expect(made.code, explain(made)).toBe(0);
      cpSync(sop('server.mjs'), join(deployed, 'server.mjs'));
    };
    bundle();
    const server = { command: process.execPath, args: ['server.mjs'], cwd: deployed };
    expect(await withStdioServer(server, askPrompt)).toBe('Ask for the invoice number and the billing month.');
    if (nodeHasSqlite()) {
      // HTTP's durable default, from a folder with nothing but the file: runs on the SQLite built into Node,
      // kept across a restart (the second server continues the first one's run).
      const runId = await withHttpServer(process.execPath, ['server.mjs'], deployed, async (client) => {
        const { run_id } = await call(client, 'load_graph', { agent: 'invoice_desk' });
        for (const node_id of ['START', 'ASK']) expect(await call(client, 'goto_node', { node_id, run_id })).toMatchObject({ valid: true });
        return run_id as string;
      });
      expect(existsSync(join(deployed, '.sop', 'runs.db'))).toBe(true);
      const continued = await withHttpServer(process.execPath, ['server.mjs'], deployed, (client) =>
        call(client, 'goto_node', { node_id: 'FOUND', run_id: runId }),
      );
      expect(continued).toMatchObject({ valid: true, path: ['START', 'ASK', 'FOUND'] });
      expect(listFiles(deployed).filter((path) => !path.startsWith('.sop/'))).toEqual(['server.mjs']);
    } else {
      // Node 20 has no SQLite of its own: without better-sqlite3 beside it, a clear refusal naming the way out.
      const noSqlite = spawnSync(process.execPath, ['server.mjs', '--http', '--port', '0'], {
        cwd: deployed,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(noSqlite.status).toBe(1);
      expect(noSqlite.stderr).toContain('needs the better-sqlite3 package, which is not installed: run `npm install better-sqlite3@12`');
      expect(noSqlite.stderr).toContain('--store memory');
    }
    const tools = await withHttpServer(process.execPath, ['server.mjs', '--store', 'memory'], deployed, async (client) => {
      expect(await askPrompt(client)).toBe('Ask for the invoice number and the billing month.');
      return (await client.listTools()).tools.map((tool) => tool.name);
    });
    expect(tools).toEqual(['load_graph', 'goto_node', 'todo', 'inspect']);

    editPrompt('and the billing month', 'and the customer number');
    const refused = npx('bundle', '--out', 'server.mjs');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('sops/invoice_desk.md: changed since it was compiled');
    expect(npx('build').code).toBe(0);
    bundle();
    expect(await withStdioServer(server, askPrompt)).toBe('Ask for the invoice number and the customer number.');
  });

  it('generates byte-identical output from another folder with the toolkit installed elsewhere, with no machine path in it', () => {
    const other = join(work, 'elsewhere', 'deeper', 'other-app');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'package.json'), '{"name":"other-app","private":true}\n');
    cpSync(sop('sops'), join(other, 'sops'), { recursive: true });
    // This repository's own build of the toolkit, run from its checkout rather than the app's node_modules.
    const built = run(process.execPath, [CLI, 'build'], other);
    expect(built.code, explain(built)).toBe(0);
    const files = listFiles(sop('generated'));
    expect(listFiles(join(other, 'generated'))).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(other, 'generated', file)), file).toEqual(readFileSync(sop('generated', file)));
    }
    const machinePaths = [work, app, PROJECT_ROOT.replace(/\/$/, ''), homedir(), tmpdir(), 'node_modules', 'file://'];
    const repoGenerated = join(PROJECT_ROOT, 'generated');
    const generatedFiles = [
      ...files.map((file) => sop('generated', file)),
      ...listFiles(repoGenerated).map((file) => join(repoGenerated, file)),
    ];
    for (const file of generatedFiles) {
      const text = readFileSync(file, 'utf8');
      for (const path of machinePaths) expect(text.includes(path), `${file} contains ${path}`).toBe(false);
    }
  });

  it('serves with the compiler’s packages deleted: serving never loads them', async () => {
    const removed = join(work, 'removed');
    mkdirSync(removed);
    const compiler = ['ts-morph', '@ts-morph', 'remark-parse', 'unified', 'yaml', 'esbuild', '@esbuild', 'typescript'];
    // And the language server's: only `sop lsp` loads them.
    for (const name of [...compiler, 'vscode-languageserver', 'vscode-languageserver-protocol', 'vscode-jsonrpc']) {
      if (existsSync(sop('node_modules', name))) renameSync(sop('node_modules', name), join(removed, name.replace('/', '+')));
    }
    // The removal is real: compiling now fails.
    expect(npx('build', '--check').code).not.toBe(0);
    const server = { command: 'npx', args: ['--no', 'sop', 'serve'], cwd: app };
    expect(await withStdioServer(server, askPrompt)).toBe('Ask for the invoice number and the customer number.');
  });
});
