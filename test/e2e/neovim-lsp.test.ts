/**
 * `sop lsp` in a real editor: Debian's Neovim (0.7.2), headless, configured by the docs' Neovim block itself (read
 * from docs/authoring.md and loaded as the init.lua, `npx --no sop lsp` and all: the temp app has the toolkit's `sop` in
 * node_modules/.bin). Neovim opens a SOP, receives the server's diagnostics, renames a node id through
 * `vim.lsp.buf.rename` (prepareRename, then the workspace edit applied to the buffer), writes the file, and receives
 * the diagnostics of the renamed text; a second SOP of the app shares the one server, a markdown file outside any
 * app gets none. Twice: as Neovim is (on 0.7, the block's `start_client` branch), and with `vim.lsp.start` given by a
 * stand-in written after Neovim 0.8's (its branch for 0.8 and later; on a Neovim that has it, the real one, and the
 * stand-in is not used). Without `nvim` the test fails and says how to install it (`.ci/run` does).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT } from '../support/run-cli.js';
import { BASE_SOP } from '../support/sop-text.js';

let dir: string;
let outside: string;
/** BASE_SOP whose ASK offers a tool the frontmatter does not declare: a warning (SOP040) at line 21. */
const SOP = BASE_SOP.replace('```yaml\ntools: [lookup]', '```yaml\ntools: [lookup, fetch_order]');

/** The Neovim configuration of docs/authoring.md, as written there: the lua block of its Neovim item. */
function readmeConfig(): string {
  const page = readFileSync(join(PROJECT_ROOT, 'docs', 'authoring.md'), 'utf8');
  const item = page.slice(page.indexOf('- **Neovim**'));
  const block = /```lua\n([\s\S]*?)\n\s*```/.exec(item)?.[1];
  if (block === undefined) throw new Error('docs/authoring.md has no lua block under its Neovim item');
  return block
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}

/** The test, run after the init.lua: `SOP_STAND_IN=1` gives Neovim 0.7 a `vim.lsp.start` written after 0.8's. */
const TEST = `
local result = { steps = {}, native_start = vim.lsp.start ~= nil, started_with = {} }
local function finish(problem)
  result.problem = problem
  local file = io.open(vim.env.SOP_RESULT, 'w')
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qa!')
end
local function diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, { line = d.lnum, col = d.col, severity = d.severity, message = d.message, code = d.code })
  end
  return out
end
local function count(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end

if vim.env.SOP_STAND_IN == '1' and vim.lsp.start == nil then
  -- What Neovim 0.8's vim.lsp.start does (runtime/lua/vim/lsp.lua): reuse the client of the same name and root_dir,
  -- else start one; attach the current buffer.
  vim.lsp.start = function(config)
    local bufnr = vim.api.nvim_get_current_buf()
    for _, client in pairs(vim.lsp.get_active_clients()) do
      if client.name == config.name and client.config.root_dir == config.root_dir then
        vim.lsp.buf_attach_client(bufnr, client.id)
        return client.id
      end
    end
    local id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(bufnr, id)
    return id
  end
  result.stand_in = true
end
local start, start_client = vim.lsp.start, vim.lsp.start_client
if start then vim.lsp.start = function(...) table.insert(result.started_with, 'start') return start(...) end end
vim.lsp.start_client = function(...) table.insert(result.started_with, 'start_client') return start_client(...) end

local ok, problem = pcall(function()
  vim.cmd('edit ' .. vim.env.SOP_FILE)
  local bufnr = vim.api.nvim_get_current_buf()
  if not vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then
    return finish('no diagnostics within 30 s')
  end
  result.before = diagnostics(bufnr)

  -- Rename the node id under the cursor: line 13 is "    START([Start]) --> ASK["Ask"]".
  vim.api.nvim_win_set_cursor(0, { 13, 24 })
  vim.lsp.buf.rename('QUESTION')
  if not vim.wait(10000, function()
    return vim.fn.getline(19) == '### QUESTION'
  end, 20) then
    return finish('the rename was not applied within 10 s: line 19 is ' .. vim.fn.getline(19))
  end
  vim.cmd('write')
  if not vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if string.find(d.message, 'QUESTION', 1, true) then return true end
    end
    return false
  end, 20) then
    return finish('no diagnostics of the renamed text within 10 s')
  end
  result.after = diagnostics(bufnr)

  -- A second SOP of the app shares the server; a markdown file outside any app has none.
  vim.cmd('edit ' .. vim.env.SOP_OTHER)
  local other = vim.api.nvim_get_current_buf()
  vim.wait(5000, function() return count(vim.lsp.buf_get_clients(other)) > 0 end, 20)
  result.other_clients = count(vim.lsp.buf_get_clients(other))
  vim.cmd('edit ' .. vim.env.SOP_OUTSIDE)
  result.outside_clients = count(vim.lsp.buf_get_clients(vim.api.nvim_get_current_buf()))
  result.clients = count(vim.lsp.get_active_clients())
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  finish(nil)
end)
if not ok then finish(tostring(problem)) end
`;

beforeAll(() => {
  const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (nvim.status !== 0) throw new Error("Neovim is missing: install Debian's neovim (apt-get install -y neovim); .ci/run does");
  outside = mkdtempSync(join(tmpdir(), 'sop-nvim-outside-'));
  writeFileSync(join(outside, 'notes.md'), '# Notes\n');
});
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A fresh app: the SOPs, `sop` in node_modules/.bin (what installing the toolkit gives), the README's init.lua. */
function app(): string {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'sop-nvim-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'package.json'), '{"name":"nvim-test","private":true}\n');
  writeFileSync(join(dir, 'sops', 'demo.md'), SOP);
  writeFileSync(join(dir, 'sops', 'other.md'), BASE_SOP.replace('agent: demo', 'agent: other'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const bin = join(dir, 'node_modules', '.bin', 'sop');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(bin, 0o755);
  writeFileSync(join(dir, 'init.lua'), readmeConfig());
  writeFileSync(join(dir, 'test.lua'), TEST);
  return dir;
}

interface NvimResult {
  readonly problem?: string;
  readonly before: NvimDiagnostic[];
  readonly after: NvimDiagnostic[];
  readonly native_start: boolean;
  readonly stand_in?: boolean;
  readonly started_with: string[];
  readonly other_clients: number;
  readonly outside_clients: number;
  readonly clients: number;
}

interface NvimDiagnostic {
  readonly line: number;
  readonly col: number;
  readonly severity: number;
  readonly message: string;
  readonly code: string;
}

describe('sop lsp in Neovim, configured as the README says', () => {
  for (const form of ['0.7: vim.lsp.start_client', '0.8 and later: vim.lsp.start'] as const) {
    it(`${form}: shows the diagnostics of a SOP, applies a rename, one server per app`, { timeout: 90_000 }, () => {
      const root = app();
      const resultFile = join(root, 'result.json');
      const standIn = form.startsWith('0.8');
      const run = spawnSync(
        'nvim',
        ['--headless', '-u', join(root, 'init.lua'), '-i', 'NONE', '-n', '-c', `luafile ${join(root, 'test.lua')}`],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 80_000,
          env: {
            ...process.env,
            PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}`,
            SOP_STAND_IN: standIn ? '1' : '0',
            SOP_FILE: join(root, 'sops', 'demo.md'),
            SOP_OTHER: join(root, 'sops', 'other.md'),
            SOP_OUTSIDE: join(outside, 'notes.md'),
            SOP_RESULT: resultFile,
          },
        },
      );
      if (!existsSync(resultFile))
        throw new Error(`Neovim wrote no result (status ${run.status}, ${run.signal ?? 'no signal'}):\n${run.stdout}\n${run.stderr}`);
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as NvimResult;
      expect(result.problem, `${run.stdout}\n${run.stderr}`).toBeUndefined();
      // The branch the README's block took: vim.lsp.start where Neovim (or the stand-in) has it, else start_client.
      const native = result.native_start;
      expect(result.started_with[0]).toBe(native || standIn ? 'start' : 'start_client');
      if (standIn && !native) expect(result.stand_in).toBe(true);
      expect([result.other_clients, result.outside_clients, result.clients]).toEqual([1, 0, 1]);
      expect(result.before).toEqual([
        {
          line: 20,
          col: 16,
          severity: 2,
          code: 'SOP040',
          message:
            'Node `ASK` names tool `fetch_order`, which is not in frontmatter `tools`.\nhelp: Valid tools: `lookup`. Otherwise add `fetch_order` to frontmatter `tools`.',
        },
      ]);
      expect(result.after.map((d) => [d.code, d.line, d.message.split('\n')[0]])).toEqual([
        ['SOP040', 20, 'Node `QUESTION` names tool `fetch_order`, which is not in frontmatter `tools`.'],
      ]);
      const saved = readFileSync(join(dir, 'sops', 'demo.md'), 'utf8');
      expect(saved).toBe(
        SOP.replace('--> ASK["Ask"]', '--> QUESTION["Ask"]')
          .replace('    ASK --> DONE', '    QUESTION --> DONE')
          .replace('### ASK\n', '### QUESTION\n'),
      );
    });
  }
});
