/**
 * Loads a database driver only when a store that needs it is opened: stdio on the memory store never pays for
 * `pg`, and an app that never uses SQLite does not need better-sqlite3 (a native addon) to work at all. A
 * driver that is missing, or whose native part does not load on this Node, becomes an error value that names
 * the fix, instead of a module-resolution stack trace.
 */

export type DriverLoad<T> = { readonly ok: true; readonly driver: T } | { readonly ok: false; readonly error: string };

/** `otherStores` completes "or choose another store (…)" in the messages. */
export async function loadDriver<T>(name: string, load: () => Promise<T>, otherStores: string): Promise<DriverLoad<T>> {
  try {
    return { ok: true, driver: await load() };
  } catch (error) {
    return { ok: false, error: driverFailure(name, error, otherStores) };
  }
}

/** The message for a driver that failed to load, at import or (for a native addon) at first use. */
export function driverFailure(name: string, error: unknown, otherStores: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = firstLine(error);
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && reason.includes(`'${name}'`)) {
    return `the ${name} package is not installed: run \`npm install ${name}\` in the app, or choose another store (${otherStores})`;
  }
  if (isNativeAddonFailure(error)) {
    const abi = /NODE_MODULE_VERSION (\d+)\.\s+This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(
      String((error as Error)?.message),
    );
    const why = abi === null ? reason : `it was built for another Node (NODE_MODULE_VERSION ${abi[1]}; this one needs ${abi[2]})`;
    return (
      `the ${name} package's native addon does not load on this Node (${process.version}): ${why}; rebuild it with ` +
      `\`npm rebuild ${name}\` (needs python3, make and a C++ compiler), or choose another store (${otherStores})`
    );
  }
  return `the ${name} package could not be loaded: ${reason}`;
}

/**
 * Whether `error` is a native addon failing to load: Node could not load the binary (built for another Node
 * or platform, damaged), or the `bindings` helper found no binary at all (never built).
 */
export function isNativeAddonFailure(error: unknown): boolean {
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_DLOPEN_FAILED') return true;
  return /could not locate the bindings file|NODE_MODULE_VERSION/i.test(firstLine(error));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').trim();
}
