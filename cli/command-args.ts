/**
 * The one flag reader of every `sop` command, on node:util's parseArgs, so each says it once and alike: `--help`
 * prints the usage on stderr (as `sop --help` does: stdout is for what a command produces) and exits 0; a usage
 * error says `sop <command>: <problem>` then the usage, on stderr, exit 2; a flag that takes one of a few values
 * names them when it gets another. Commands import parseArgs from here only (a test holds them to it).
 *
 * What parseArgs cannot check is read after it, with the small readers below: a whole number in a range
 * (`wholeNumber`), a duration such as `30m` (`duration`). A `--no-x` flag is an option of its own (a boolean named
 * `no-x`): parseArgs's `allowNegative` exists only from Node 22.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  /** As the user types it after `sop`, e.g. `runs migrate`. */
  readonly name: string;
  readonly usage: string;
}

export type CommandArgs<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** A command's parseArgs config: every command has `--help` (and `-h`). */
export type CommandConfig = ParseArgsConfig & { options: { help: { type: 'boolean' } } };

/**
 * What parseArgs refused: its message (e.g. `Unknown option '--x'`) and, where it is one of these, the argument at
 * fault, for a command that words it its own way: `unknown`, an option the command does not have, as typed
 * (`--x=1` whole); `missingValue`, a flag that takes a value and was given none (`--port`).
 */
export interface ArgsProblem {
  readonly problem: string;
  readonly unknown?: string;
  readonly missingValue?: string;
}

/** The arguments read (pure: prints nothing): the parsed values, `'help'` when asked for, or the problem. */
export function parseCommandArgs<T extends CommandConfig>(args: readonly string[], config: T): CommandArgs<T> | 'help' | ArgsProblem {
  let parsed: CommandArgs<T>;
  try {
    // The config with the arguments added is the same config as far as the result's type goes.
    parsed = parseArgs({ ...config, args: [...args] }) as CommandArgs<T>;
  } catch (error) {
    return { problem: (error as Error).message, ...faultyArgument(args, config) };
  }
  return (parsed.values as { help?: boolean }).help === true ? 'help' : parsed;
}

/**
 * Which argument parseArgs stumbled on, when it is an unknown option or a flag without its value (none, or the next
 * argument, which looks like an option: `--host --port 1`). The arguments are read again leniently, and in the order
 * the strict reading checks them, so this is the argument it refused.
 */
function faultyArgument(args: readonly string[], config: ParseArgsConfig): { unknown?: string; missingValue?: string } {
  const { tokens } = parseArgs({ ...config, args: [...args], strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional' && config.allowPositionals !== true) return {};
    if (token.kind !== 'option') continue;
    const declared = config.options?.[token.name];
    if (declared === undefined) return { unknown: args[token.index] ?? token.rawName };
    const { value, inlineValue } = token;
    if (declared.type === 'boolean' && inlineValue === true) return {};
    if (declared.type === 'string' && (value === undefined || (inlineValue !== true && value.length > 1 && value.startsWith('-'))))
      return { missingValue: token.rawName };
  }
  return {};
}

/** The parsed arguments, or the exit code when there is nothing more to do (help printed, or a usage error). */
export function readCommandArgs<T extends CommandConfig>(command: Command, args: readonly string[], config: T): CommandArgs<T> | number {
  const parsed = parseCommandArgs(args, config);
  if (parsed === 'help') return showUsage(command);
  if ('problem' in parsed) return usageError(command, parsed.problem);
  return parsed;
}

/** The answer to `--help`: the usage on stderr, exit code 0. */
export function showUsage(command: Command): number {
  process.stderr.write(command.usage);
  return 0;
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

/** A flag's value written in digits (`8080`; not `1e3`, `0x50` nor ` 80`) from `min` to `max`, else undefined. */
export function wholeNumber(text: string | undefined, min: number, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) && number >= min && number <= max ? number : undefined;
}

/** `90s`, `30m`, `24h`, `7d` (or plain milliseconds, or `500ms`) → milliseconds, more than 0; else undefined. */
export function duration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (match === null) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
