/**
 * `sop init`: sets up the app it is run in (the app root found from the working directory) for the toolkit:
 * an example SOP in the SOP folder, the package.json scripts (`build:sops`, `check:sops`, `serve:sops`; the
 * generated headers say `Regenerate: npm run build:sops`), and an `sop` server in `.mcp.json` for Claude Code.
 *
 * It overwrites nothing: an existing file, script or server entry is left as it is, and the report says what
 * was created and what was left alone. Files it edits (package.json, .mcp.json) keep their indentation and
 * final newline; one that is not valid JSON is left untouched and reported (exit 1), the rest still happens.
 *
 * Exit codes: 0 done (whether or not anything was missing); 1 a file could not be updated; 2 bad usage or no
 * package.json (run `npm init` first: the scripts need one).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommandArgs } from '../command-args.js';
import { readConfig, resolveProjectPaths } from '../config.js';
import { displayPath as display, findProjectRoot } from '../project-root.js';
import { EXAMPLE_SOP, EXAMPLE_SOP_FILE } from './init-example-sop.js';

/** The scripts `init` adds; the names the README, the generated headers and the CI recipe use. */
export const INIT_SCRIPTS: Readonly<Record<string, string>> = {
  'build:sops': 'sop build',
  'check:sops': 'sop build --check --max-warnings 0',
  'serve:sops': 'sop serve',
};

/**
 * How an MCP client starts the server. `npx --no` runs the app's installed `sop` and never downloads a package
 * of that name from the registry when it is missing; npx prints nothing on stdout, which is the protocol's.
 */
export const MCP_SERVER_ENTRY = { command: 'npx', args: ['--no', 'sop', 'serve'] } as const;
const MCP_SERVER_NAME = 'sop';

type Step = { readonly kind: 'created' | 'kept' | 'failed'; readonly what: string; readonly why?: string };

const COMMAND = {
  name: 'init',
  usage: 'Usage: sop init\n  Adds an example SOP, the package.json scripts and an .mcp.json entry; overwrites nothing.\n',
};

export async function runInit(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, { options: { help: { type: 'boolean', short: 'h' } } });
  if (typeof parsed === 'number') return parsed;
  const root = findProjectRoot(process.cwd());
  if (!existsSync(join(root, 'package.json'))) {
    process.stderr.write('sop init: no package.json here or above. Run `npm init -y` and `npm install sop-toolkit` first.\n');
    return 2;
  }
  const config = readConfig(root);
  if (!config.ok) {
    process.stderr.write(`sop init: ${config.error}\n`);
    return 2;
  }
  const { sopsDir } = resolveProjectPaths(root, config.config, {});
  const steps = [...addExampleSop(root, sopsDir), ...addScripts(root), ...addMcpServer(root)];
  process.stdout.write(renderReport(steps));
  return steps.some((step) => step.kind === 'failed') ? 1 : 0;
}

function addExampleSop(root: string, sopsDir: string): Step[] {
  const folder = display(root, sopsDir);
  const existing = existsSync(sopsDir) ? readdirSync(sopsDir).filter((name) => name.endsWith('.md')) : [];
  if (existing.length > 0) {
    return [{ kind: 'kept', what: `${folder}/`, why: `already has ${existing.length} SOP${existing.length === 1 ? '' : 's'}` }];
  }
  mkdirSync(sopsDir, { recursive: true });
  writeFileSync(join(sopsDir, EXAMPLE_SOP_FILE), EXAMPLE_SOP);
  return [{ kind: 'created', what: `${folder}/${EXAMPLE_SOP_FILE}`, why: 'an example SOP to edit or replace' }];
}

function addScripts(root: string): Step[] {
  return editJson(root, 'package.json', (json) => {
    const scripts = objectAt(json, 'scripts');
    if (scripts === null) return [{ kind: 'failed', what: 'package.json "scripts"', why: 'is not an object' }];
    return Object.entries(INIT_SCRIPTS).map(([name, command]): Step => {
      const what = `package.json script "${name}"`;
      if (name in scripts) return { kind: 'kept', what, why: `already "${String(scripts[name])}"` };
      scripts[name] = command;
      return { kind: 'created', what, why: `"${command}"` };
    });
  });
}

function addMcpServer(root: string): Step[] {
  const file = '.mcp.json';
  if (!existsSync(join(root, file))) {
    writeFileSync(join(root, file), `${JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: MCP_SERVER_ENTRY } }, null, 2)}\n`);
    return [{ kind: 'created', what: `${file}`, why: `MCP server "${MCP_SERVER_NAME}" for Claude Code` }];
  }
  return editJson(root, file, (json) => {
    const servers = objectAt(json, 'mcpServers');
    const what = `${file} server "${MCP_SERVER_NAME}"`;
    if (servers === null) return [{ kind: 'failed', what: `${file} "mcpServers"`, why: 'is not an object' }];
    if (MCP_SERVER_NAME in servers) return [{ kind: 'kept', what, why: 'already configured' }];
    servers[MCP_SERVER_NAME] = MCP_SERVER_ENTRY;
    return [{ kind: 'created', what, why: `runs ${[MCP_SERVER_ENTRY.command, ...MCP_SERVER_ENTRY.args].join(' ')}` }];
  });
}

/**
 * Reads a JSON object file, lets `edit` change it and report its steps, and writes it back only when a step
 * created something, in the file's own indentation and final newline.
 */
function editJson(root: string, file: string, edit: (json: Record<string, unknown>) => Step[]): Step[] {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return [{ kind: 'failed', what: file, why: `is not valid JSON (${(error as Error).message}); left untouched` }];
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return [{ kind: 'failed', what: file, why: 'does not hold a JSON object; left untouched' }];
  }
  const steps = edit(json as Record<string, unknown>);
  if (steps.some((step) => step.kind === 'created')) {
    const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? '  ';
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const body = JSON.stringify(json, null, indent).replace(/\n/g, eol);
    writeFileSync(path, text.endsWith('\n') || text === '' ? `${body}${eol}` : body);
  }
  return steps;
}

/** The object under `key`, created when absent; null when the key holds something else. */
function objectAt(json: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const value = json[key] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  json[key] = value;
  return value as Record<string, unknown>;
}

function renderReport(steps: readonly Step[]): string {
  const line = (step: Step) => `  ${step.what}${step.why ? `: ${step.why}` : ''}\n`;
  const section = (title: string, kind: Step['kind']) => {
    const chosen = steps.filter((step) => step.kind === kind);
    return chosen.length === 0 ? '' : `${title}\n${chosen.map(line).join('')}`;
  };
  return [
    section('sop init: created', 'created'),
    section('left alone (already there)', 'kept'),
    section('could not update', 'failed'),
    'Next: npm run build:sops   (compiles the SOPs into the output folder; commit it, run npm run check:sops in CI)\n',
  ].join('');
}
