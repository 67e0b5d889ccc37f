#!/usr/bin/env node
/**
 * The `sop` command line: `init` (set an app up), `build` (compile the SOPs into typed modules and the bundle),
 * `inspect FILE` (print what the compiler understood of one SOP), `serve` (the MCP server), `bundle` (write
 * the one-file server), `runs` (the runs in a store and their audit logs, and moving them to a new version), `paths`
 * (an agent's golden paths), `diff` (what a change to the SOPs does, for review),
 * `replay` (check a finished conversation against its SOP), `discover` (draft a SOP from agent logs), and the
 * authoring tools `lsp` (the language server) and `preview` (the live page). Each command lives in its own
 * module and is imported only when chosen, so `serve` never loads the compiler and a no-op `build` never loads
 * ts-morph.
 *
 * Exit codes: 0 ok (warnings allowed), 1 diagnostics or stale output, 2 internal failure or bad usage.
 */
import { settleExit } from './settle-exit.js';

const USAGE = `Usage: sop <command> [options]

Every path is relative to the app root (the nearest folder with a package.json). sop.config.json there may
set {"sops": DIR, "out": DIR, "paths": true}; --sops, --out and --paths override it.

Commands:
  init             Add an example SOP, the package.json scripts and an .mcp.json entry (overwrites nothing)
  build            Compile sops/*.md into generated/ (npm run build:sops)
      --sops DIR        SOP folder (default: sops)
      --out DIR         output folder (default: generated)
      --check           write nothing; exit 1 listing stale, missing and orphaned files
      --watch           rebuild on change, keep running through errors
      (sop build --help lists the rest: golden paths, the token report, checking tools, --max-warnings, JSON)
  inspect FILE     Print the compiled model of one SOP as JSON
  serve            Serve the compiled agents (the output folder's sop-bundle.json) over MCP
      --stdio           (default) speak MCP on stdin/stdout
      --gateway         also offer the SOPs' domain servers' tools, and forward a call only where the run allows it
      --http            Streamable HTTP
      --port N          (default 3000)   --host H   (default 127.0.0.1)
      --out DIR         output folder to serve (default: generated)
      --store URL       where runs live: memory (stdio default), sqlite:PATH (HTTP default: sqlite:.sop/runs.db),
                        postgres://… (several instances)
      (sop serve --help lists the rest: run TTL, session cap, bearer tokens, OAuth)
  bundle           Write a one-file MCP server (the compiled agents + the runtime; needs no node_modules)
      --out FILE        (default: sop-server.mjs); run it with node FILE [--http ...]
  runs list        Runs in a store, most recently active first
  runs show RUN    One run and its audit log
  runs migrate --agent A   Move A's runs to the version the bundle serves (--to HASH another; --dry-run decides only),
                   run by run: those whose path the new version allows and whose policies hold; the others stay
      --store URL       memory, sqlite:PATH or postgres://… (default sqlite:./.sop/runs.db)
      --format text|json
  paths AGENT      The golden paths of a compiled agent (entry node to every terminal), as JSON
      --max-paths N     (default 200)   --max-steps N   search budget (default 1000000)
  diff [BASE] [HEAD]  What a change to the SOPs does, compiled: nodes, edges, prompts, tools, limits, policies,
                   golden paths, and the risks (a removed node, a tool before its confirmation, a weakened policy).
                   BASE, HEAD: git revisions (default: the merge base with main, and the working tree), or two files
      --format markdown|json   --fail-on risk|change|never (exit 1 when found)   --base-branch NAME
  replay FILE...|DIR  Check finished conversations against their SOP: an audit log, chat messages (OpenAI,
                   Anthropic, tau2-bench), Claude Code session logs, OpenAI Responses items; with goto_node calls or
                   without (the walk that best explains the calls: fitness, deviations). Several files or a folder:
                   one row each, totals per deviation kind and per node. Exit 0 pass, 1 fail
      --agent NAME      --format text|json|csv      --outcomes FILE (transcript -> success: means and AUC)
  discover FILE...|DIR --agent NAME  Draft an editable SOP from agent logs (the formats replay reads): the opening,
                   a ROUTE hub, one flow per intent, mined with the Inductive Miner; compiled, and the logs scored
                   against it. --against SOP_FILE compares practice with a written SOP
      --out FILE        --outcomes FILE --only-successes      --noise N (default 0.2)      --format text|json
  lsp              The language server for SOP files, on stdin/stdout (diagnostics, hover, go to definition,
                   references, rename, completion, quick fixes, outline): point your editor's LSP client at it
  preview [FILE]   A local page that draws the SOP as you save it: the flowchart with its diagnostics, node
                   details, and a walk through goto_node (default: the first SOP)
      --port N          (default 3939; 0 picks a free one)   --open   also open it in the browser
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'init':
      return (await import('./commands/init.js')).runInit(rest);
    case 'build':
      return (await import('./commands/build.js')).runBuild(rest);
    case 'bundle':
      return (await import('./commands/bundle.js')).runBundle(rest);
    case 'inspect':
      return (await import('./commands/inspect.js')).runInspect(rest);
    case 'serve':
      return (await import('./commands/serve.js')).runServe(rest);
    case 'runs':
      return (await import('./commands/runs.js')).runRuns(rest);
    case 'paths':
      return (await import('./commands/paths.js')).runPaths(rest);
    case 'diff':
      return (await import('./commands/diff.js')).runDiff(rest);
    case 'replay':
      return (await import('./commands/replay.js')).runReplay(rest);
    case 'discover':
      return (await import('./commands/discover.js')).runDiscover(rest);
    case 'lsp':
      return (await import('./commands/lsp.js')).runLsp(rest);
    case 'preview':
      return (await import('./commands/preview.js')).runPreview(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stderr.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`sop: unknown command '${command}'.\n\n${USAGE}`);
      return 2;
  }
}

const argv = process.argv.slice(2);
// A reader that stops early (`sop paths AGENT | head`) closes the pipe: end quietly, as Unix tools do. Not for
// `serve`, whose stdout is the MCP channel and whose transport ends the session itself when the client goes.
if (argv[0] !== 'serve') {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
settleExit(main(argv), 'sop');
