/**
 * Where the server says what happens: one line per event. The default writes to stderr, because on stdio the
 * protocol owns stdout; an app embedding the server passes its own logger. Injected, never global.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export function stderrLogger(prefix = 'sop serve'): Logger {
  const write = (line: string): void => void process.stderr.write(`${prefix}: ${line}\n`);
  return {
    info: write,
    warn: (message) => write(`warning: ${message}`),
    error: (message, error) => {
      const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      write(`${message}${detail}`);
    },
  };
}

/** A logger that drops everything (tests that assert on nothing logged use their own collecting logger). */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
