/**
 * `sop lsp` in a real editor: Debian's Neovim, headless, with its built-in LSP client configured by a Lua file this
 * test writes (the few lines the README gives). Neovim opens a SOP, receives the server's diagnostics, renames a
 * node id through `vim.lsp.buf.rename` (prepareRename, then the workspace edit applied to the buffer), writes the
 * file, and receives the diagnostics of the renamed text. Without `nvim` the test fails and says how to install it
 * (`.ci/run` does).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/run-cli.js';
import { BASE_SOP } from '../support/sop-text.js';

let dir: string;
/** BASE_SOP whose ASK offers a tool the frontmatter does not declare: a warning (SOP040) at line 21. */
const SOP = BASE_SOP.replace('```yaml\ntools: [lookup]', '```yaml\ntools: [lookup, fetch_order]');

const CONFIG = String.raw`
local result = { steps = {} }
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

local ok, problem = pcall(function()
  -- The configuration an author puts in init.lua (Neovim 0.7: start_client + buf_attach_client).
  vim.cmd('edit ' .. vim.env.SOP_FILE)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({
    name = 'sop',
    cmd = { vim.env.SOP_NODE, vim.env.SOP_CLI, 'lsp', '--stdio' },
    root_dir = vim.env.SOP_ROOT,
  })
  vim.lsp.buf_attach_client(bufnr, client)

  if not vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then
    return finish('no diagnostics within 20 s')
  end
  result.before = diagnostics(bufnr)

  -- Rename the node id under the cursor: line 13 is "    START([Start]) --> ASK[\"Ask\"]".
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
  vim.lsp.stop_client(client)
  finish(nil)
end)
if not ok then finish(tostring(problem)) end
`;

beforeAll(() => {
  const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (nvim.status !== 0) throw new Error("Neovim is missing: install Debian's neovim (apt-get install -y neovim); .ci/run does");
  dir = mkdtempSync(join(tmpdir(), 'sop-nvim-'));
  mkdirSync(join(dir, 'sops'));
  writeFileSync(join(dir, 'package.json'), '{"name":"nvim-test","private":true}\n');
  writeFileSync(join(dir, 'sops', 'demo.md'), SOP);
  writeFileSync(join(dir, 'sop.lua'), CONFIG);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface NvimDiagnostic {
  readonly line: number;
  readonly col: number;
  readonly severity: number;
  readonly message: string;
  readonly code: string;
}

describe('sop lsp in Neovim', () => {
  it('shows the diagnostics of a SOP and applies a rename of a node id', { timeout: 90_000 }, () => {
    const resultFile = join(dir, 'result.json');
    const run = spawnSync('nvim', ['--headless', '--clean', '-n', '-c', `luafile ${join(dir, 'sop.lua')}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        SOP_NODE: process.execPath,
        SOP_CLI: CLI,
        SOP_ROOT: dir,
        SOP_FILE: join(dir, 'sops', 'demo.md'),
        SOP_RESULT: resultFile,
      },
    });
    if (!existsSync(resultFile))
      throw new Error(`Neovim wrote no result (status ${run.status}, ${run.signal ?? 'no signal'}):\n${run.stdout}\n${run.stderr}`);
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { problem?: string; before: NvimDiagnostic[]; after: NvimDiagnostic[] };
    expect(result.problem, `${run.stdout}\n${run.stderr}`).toBeUndefined();
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
});
