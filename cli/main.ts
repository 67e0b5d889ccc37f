#!/usr/bin/env node
/**
 * The `sop` command line: `build` (compile sops/ into generated/), `inspect FILE` (print what the compiler
 * understood of one SOP), `serve` (the MCP server) and `runs` (the runs in a store and their audit logs). Each command lives in its own module and is imported
 * only when chosen, so `serve` never loads the compiler and a no-op `build` never loads ts-morph.
 *
 * Exit codes: 0 ok (warnings allowed), 1 diagnostics or stale output, 2 internal failure or bad usage.
 */
const USAGE = `Usage: sop <command> [options]

Commands:
  build            Compile sops/*.md into generated/ (npm run build:sops)
      --sops DIR        SOP folder (default: sops)
      --out DIR         output folder (default: generated)
      --check           write nothing; exit 1 listing stale, missing and orphaned files
      --watch           rebuild on change, keep running through errors
      --format text|json
  inspect FILE     Print the compiled model of one SOP as JSON
  serve            Serve the compiled agents over MCP
      --stdio           (default) speak MCP on stdin/stdout
      --http            Streamable HTTP
      --port N          (default 3000)   --host H   (default 127.0.0.1)
  runs list        Runs in a store, most recently active first
  runs show RUN    One run and its audit log
      --store URL       memory, sqlite:PATH or postgres://… (default sqlite:./.sop/runs.db)
      --format text|json
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'build':
      return (await import('./commands/build.js')).runBuild(rest);
    case 'inspect':
      return (await import('./commands/inspect.js')).runInspect(rest);
    case 'serve':
      return (await import('./commands/serve.js')).runServe(rest);
    case 'runs':
      return (await import('./commands/runs.js')).runRuns(rest);
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

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` and `build --watch` keep running: they resolve only when they are done.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `sop: internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
