/**
 * What the subcommands built on node:util's parseArgs share, so each says it once and alike: `--help` prints the
 * usage on stderr (as `sop --help` does: stdout is for what a command produces) and exits 0; a usage error says
 * `sop <command>: <problem>` then the usage, on stderr, exit 2; a flag that takes one of a few values names them
 * when it gets another.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  /** As the user types it after `sop`, e.g. `runs migrate`. */
  readonly name: string;
  readonly usage: string;
}

export type CommandArgs<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** The parsed arguments, or the exit code when there is nothing more to do (help printed, or a usage error). */
export function readCommandArgs<T extends ParseArgsConfig & { options: { help: { type: 'boolean' } } }>(
  command: Command,
  args: readonly string[],
  config: T,
): CommandArgs<T> | number {
  let parsed: CommandArgs<T>;
  try {
    // The config with the arguments added is the same config as far as the result's type goes.
    parsed = parseArgs({ ...config, args: [...args] }) as CommandArgs<T>;
  } catch (error) {
    return usageError(command, (error as Error).message);
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    process.stderr.write(command.usage);
    return 0;
  }
  return parsed;
}

/** Says what is wrong with the command line, then the usage; the exit code for bad usage. */
export function usageError(command: Command, message: string): number {
  process.stderr.write(`sop ${command.name}: ${message}\n\n${command.usage}`);
  return 2;
}

/** `value` when it is one of `allowed` (or `fallback` when absent), else the message naming the choices. */
export function oneOf<const A extends readonly string[]>(
  flag: string,
  value: string | undefined,
  allowed: A,
  fallback: A[number],
): { readonly value: A[number] } | { readonly problem: string } {
  const chosen = value ?? fallback;
  if ((allowed as readonly string[]).includes(chosen)) return { value: chosen as A[number] };
  const names = allowed.length === 2 ? allowed.join(' or ') : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return { problem: `${flag} is ${names}, got ${chosen}` };
}
