/**
 * `sop preview [FILE]`: serves a local page that draws a SOP as it is saved (`authoring/preview/`): the flowchart
 * with its diagnostics on their nodes and in a list, node details on click, and a walk through `goto_node`. FILE is a
 * SOP of the project (default: the first one in the SOP folder); the page switches between them. It runs until
 * Ctrl-C. Exit codes: 2 for bad usage, no SOP, a port in use, or a toolkit built without its page assets.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openProject } from '../../generator/project/open-project.js';
import { findPageAssets } from '../../runtime/page/page-assets.js';
import { readCommandArgs, usageError, wholeNumber } from '../command-args.js';
import { locateProject } from '../config.js';

const DEFAULT_PORT = 3939;

const USAGE = `Usage: sop preview [FILE] [--port N] [--open]
  A local page that draws the SOP as you save it: the flowchart with its diagnostics, node details, and a walk
  through goto_node. FILE: a SOP of the project (default: the first one in the SOP folder).
  --port N   (default ${DEFAULT_PORT}; 0 picks a free one)
  --open     also open it in the browser
`;

const COMMAND = { name: 'preview', usage: USAGE };

export async function runPreview(args: readonly string[]): Promise<number> {
  const parsed = readCommandArgs(COMMAND, args, {
    allowPositionals: true,
    options: { port: { type: 'string' }, open: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const port = values.port === undefined ? DEFAULT_PORT : wholeNumber(values.port, 0, 65535);
  if (port === undefined) return usageError(COMMAND, `--port needs a number from 0 to 65535, got ${values.port}`);
  if (positionals.length > 1) return usageError(COMMAND, 'name at most one SOP file');
  const located = locateProject(process.cwd(), {});
  if (!located.ok) {
    process.stderr.write(`sop preview: ${located.error}\n`);
    return 2;
  }
  const project = openProject(located.paths);
  const sources = project.readSources();
  const wanted = positionals[0] === undefined ? undefined : project.fileOf(resolve(positionals[0]));
  const file = wanted ?? sources[0]?.file;
  if (file === undefined || !sources.some((s) => s.file === file)) {
    process.stderr.write(
      wanted === undefined
        ? `sop preview: no SOP files (*.md) in ${project.fileOf(located.paths.sopsDir)}/\n`
        : `sop preview: ${wanted} is not a SOP of this project (its SOPs are the *.md files in ${project.fileOf(located.paths.sopsDir)}/)\n`,
    );
    return 2;
  }
  const assetsDir = findPageAssets();
  if (assetsDir === undefined || !existsSync(join(assetsDir, 'preview.js'))) {
    process.stderr.write(
      'sop preview: the page assets are missing: run npm run build (it bundles the page and copies Mermaid into dist/page/)\n',
    );
    return 2;
  }
  const { startPreview } = await import('../../authoring/preview/preview-server.js');
  let preview: Awaited<ReturnType<typeof startPreview>>;
  try {
    preview = await startPreview({ project, file, port, assetsDir, log: (message) => process.stderr.write(`${message}\n`) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      `sop preview: cannot listen on 127.0.0.1:${port}${code === 'EADDRINUSE' ? ' (in use: pass --port N)' : ` (${String(error)})`}\n`,
    );
    return 2;
  }
  process.stdout.write(`sop preview: ${file} at ${preview.url} (redraws on save; Ctrl-C to stop)\n`);
  if (values.open) await openInBrowser(preview.url);
  return new Promise((done) => {
    const stop = () => void preview.close().then(() => done(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function openInBrowser(url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(command, [url], { stdio: 'ignore', detached: true })
    .on('error', () => process.stderr.write(`sop preview: could not open a browser (${command}); open ${url}\n`))
    .unref();
}
