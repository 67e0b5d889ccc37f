// Builds the agent-framework examples (examples/<framework>/) as their users would: packs the toolkit, then for each
// example, in a temp copy, installs its pinned dependencies with the packed toolkit, compiles its SOP (`sop build`),
// type-checks and builds it (`tsc`), and runs it without a model key: it starts `sop serve` through the framework's
// MCP client, lists the tools and plays load_graph and the first goto_node through the framework's tool wrappers.
// Then once more against the gateway (SOP_URL): this repository's `sop serve --gateway --http` on the retail SOP, its
// example retail server on a temp database; the example lists the domain tools beside the toolkit's.
// Why a script of its own (`npm run examples`, run by .ci/run after `npm test`): the installs take about a minute,
// and each example has dependencies of its own that the repository does not install.
// Usage: node scripts/check-examples.mjs [NAME...]   (default: every examples/* folder with a package.json but retail-tools)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const examplesDir = join(root, 'examples');
const SKIP = new Set(['retail-tools']);
const SKIPPED_FILES = new Set(['node_modules', 'dist', 'generated', 'package-lock.json']);
// The examples run without a model: no key, so none of them can call one.
const MODEL_KEYS = ['OPENAI_API_KEY', 'AI_GATEWAY_API_KEY', 'ANTHROPIC_API_KEY', 'VERCEL_OIDC_TOKEN'];

const wanted = process.argv.slice(2);
const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SKIP.has(entry.name) && existsSync(join(examplesDir, entry.name, 'package.json')))
  .map((entry) => entry.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();
if (examples.length === 0) {
  console.error(`check-examples: no example named ${wanted.join(', ')}`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'sop-examples-'));
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
let failed = false;

/** `sop serve --gateway --http` in this checkout (runs in memory, the retail database in `work`), on a free port. */
async function startGateway() {
  copyFileSync(join(examplesDir, 'retail-tools/seed.json'), join(work, 'retail.json'));
  const child = spawn(
    process.execPath,
    ['dist/cli/main.js', 'serve', '--gateway', '--http', '--port', '0', '--store', 'memory', '--agents', 'retail_customer_support'],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RETAIL_TOOLS_DB: join(work, 'retail.json') } },
  );
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway announced no URL in 30 s:\n${stderr}`)), 30_000);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}:\n${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What a run without a model prints: the tools, the run load_graph started, the entry node accepted. */
function expectOutput(output, tools) {
  const expected = [`tools: ${tools}`, 'load_graph: run run_', 'goto_node START: {"node":{"id":"START"'];
  const missing = expected.filter((line) => !output.includes(line));
  if (missing.length > 0) throw new Error(`its output lacks ${missing.map((line) => JSON.stringify(line)).join(', ')}:\n${output}`);
  if (!/"valid":true/.test(output)) throw new Error(`goto_node START was not accepted:\n${output}`);
  for (const line of output.trimEnd().split('\n')) console.log(`    | ${line.length > 160 ? `${line.slice(0, 160)}…` : line}`);
}

function run(label, command, args, cwd, env = process.env) {
  const since = Date.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${label} failed (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  console.log(`  ${label}: ${seconds(since)}`);
  return result.stdout;
}

let gateway;
try {
  const packing = Date.now();
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(work, packed[0].filename);
  console.log(`check-examples: packed ${packed[0].filename} in ${seconds(packing)}`);
  gateway = await startGateway();
  console.log(`check-examples: the gateway serves the retail SOP at ${gateway.url}`);

  for (const name of examples) {
    const since = Date.now();
    console.log(`${name}:`);
    const dir = join(work, name);
    cpSync(join(examplesDir, name), dir, { recursive: true, filter: (source) => !SKIPPED_FILES.has(source.split(/[\\/]/).pop()) });
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    manifest.dependencies['sop-toolkit'] = `file:${tarball}`;
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    try {
      // --ignore-scripts: no native build (the examples keep runs in memory, and better-sqlite3 is optional).
      run('npm install', 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], dir);
      run('sop build', process.execPath, [join(dir, 'node_modules/sop-toolkit/dist/cli/main.js'), 'build'], dir);
      run('tsc', process.execPath, [join(dir, 'node_modules/typescript/bin/tsc')], dir);
      const env = { ...process.env };
      for (const key of MODEL_KEYS) delete env[key];
      const served = run('run without a model, on sop serve (stdio)', process.execPath, ['dist/agent.js'], dir, env);
      expectOutput(served, 'load_graph, goto_node, todo, inspect');
      const gatewayEnv = { ...env, SOP_URL: gateway.url, SOP_AGENT: 'retail_customer_support' };
      const through = run('run without a model, on the gateway (HTTP)', process.execPath, ['dist/agent.js'], dir, gatewayEnv);
      expectOutput(through, 'load_graph, goto_node, todo, inspect, find_user_id_by_email, find_user_id_by_name_zip, get_user_details');
      const size = run('size', 'du', ['-sm', join(dir, 'node_modules')], dir).split('\t')[0];
      console.log(`  ok in ${seconds(since)} (node_modules ${size} MB)`);
    } catch (error) {
      failed = true;
      console.error(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
} finally {
  await gateway?.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(`check-examples: ${examples.length} example(s) in ${seconds(started)}${failed ? ', with failures' : ''}`);
process.exit(failed ? 1 : 0);
