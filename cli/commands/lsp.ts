/**
 * `sop lsp`: the language server for SOP files, over stdio, for any editor with an LSP client (see the README's
 * "Write SOPs in your editor"). Each document's project is found from its own folder (the nearest package.json and
 * its `sop.config.json`), so one server serves every app the editor opens. Imported only when chosen: serving
 * never loads it.
 */
import { readCommandArgs } from '../command-args.js';
import { DEFAULT_CONFIG, locateProject, resolveProjectPaths } from '../config.js';
import { findProjectRoot } from '../project-root.js';

const USAGE = `Usage: sop lsp [--stdio]
  The language server for SOP files, on stdin/stdout (diagnostics, hover, go to definition, references, rename,
  completion, quick fixes, outline): point your editor's LSP client at it.
  --stdio   accepted, as editors pass it (VS Code's client always does); stdio is the only transport
`;

const COMMAND = { name: 'lsp', usage: USAGE };

export async function runLsp(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, { options: { stdio: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (typeof parsed === 'number') return parsed;
  const { startLanguageServer } = await import('../../authoring/lsp/language-server.js');
  const connection = startLanguageServer({
    input: process.stdin,
    output: process.stdout,
    locate(dir) {
      const located = locateProject(dir, {});
      if (located.ok) return { layout: located.paths };
      return { layout: resolveProjectPaths(findProjectRoot(dir), DEFAULT_CONFIG, {}), problem: located.error };
    },
  });
  // A bug must not end the server an editor depends on: it is logged to the editor's output, and the server goes on.
  process.on('uncaughtException', (error) => connection.console.error(`sop lsp: internal error: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (error) => connection.console.error(`sop lsp: internal error: ${String(error)}`));
  // The server ends when the editor closes its stdin or sends `exit` (vscode-languageserver exits the process).
  return new Promise<number>(() => undefined);
}
