/**
 * How a `sop` process ends: a command resolves to its exit code; an exception is a bug, reported as one with
 * exit code 2. Shared by the `sop` command line and the one-file server, which runs `sop serve` without it.
 * Sets `process.exitCode` rather than calling `process.exit()`, so pending output is flushed first.
 */
export function settleExit(run: Promise<number>, name: string): void {
  run.then(
    (code) => {
      // `serve` and `build --watch` keep running: they resolve only when they are done.
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `${name}: internal error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 2;
    },
  );
}
