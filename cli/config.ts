/**
 * `sop.config.json`: the one optional config file, at the app root (beside package.json), read by `build`,
 * `serve` and `bundle` alike, as Relay reads `relay.config.json`. Zero config is the norm: without the file the
 * SOPs are in `sops/` and the output goes to `generated/`. Command-line flags override the file, the file
 * overrides the defaults, and every path resolves from the app root, never from the working directory or from
 * where the toolkit is installed.
 *
 * A file that is not JSON, has an unknown key or a value of the wrong type is an error that names the file,
 * the key and the valid keys: a typo must not silently fall back to the defaults.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findProjectRoot } from './project-root.js';

export const CONFIG_FILE = 'sop.config.json';

/** The settings, as written in the file (paths relative to the app root). */
export interface SopConfig {
  /** Folder of the SOP markdown files. */
  readonly sops: string;
  /** Folder the compiler writes; the server reads its `sop-bundle.json`. */
  readonly out: string;
  /** Also write each agent's golden paths (`<out>/<agent>/paths.json`), the fixtures `sop-toolkit/testing` walks. */
  readonly paths?: boolean;
}

export const DEFAULT_CONFIG: SopConfig = { sops: 'sops', out: 'generated' };

const FOLDER_KEYS: readonly ('sops' | 'out')[] = ['sops', 'out'];
const KEYS: readonly (keyof SopConfig)[] = [...FOLDER_KEYS, 'paths'];
/** Allowed so that editors can offer completion from a JSON schema; ignored otherwise. */
const IGNORED_KEYS = ['$schema'];

export type ConfigRead = { readonly ok: true; readonly config: SopConfig } | { readonly ok: false; readonly error: string };

/** Reads `sop.config.json` at `root`; the defaults when there is none. */
export function readConfig(root: string): ConfigRead {
  const file = join(root, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, config: DEFAULT_CONFIG };
    return { ok: false, error: `cannot read ${CONFIG_FILE} (${code})` };
  }
  return parseConfig(text);
}

export function parseConfig(text: string): ConfigRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${CONFIG_FILE} is not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `${CONFIG_FILE} must hold a JSON object such as {"sops": "sops", "out": "generated"}` };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const unknown = entries.map(([key]) => key).filter((key) => !(KEYS as readonly string[]).includes(key) && !IGNORED_KEYS.includes(key));
  if (unknown.length > 0) {
    return { ok: false, error: `${CONFIG_FILE}: unknown key ${unknown.map((k) => `"${k}"`).join(', ')} (valid keys: ${KEYS.join(', ')})` };
  }
  const settings = value as Partial<Record<keyof SopConfig, unknown>>;
  for (const key of FOLDER_KEYS) {
    const setting = settings[key];
    if (setting !== undefined && (typeof setting !== 'string' || setting.trim() === '')) {
      return { ok: false, error: `${CONFIG_FILE}: "${key}" must be a folder path (a non-empty string), got ${JSON.stringify(setting)}` };
    }
  }
  if (settings.paths !== undefined && typeof settings.paths !== 'boolean') {
    return { ok: false, error: `${CONFIG_FILE}: "paths" must be true or false, got ${JSON.stringify(settings.paths)}` };
  }
  const pick = (key: 'sops' | 'out') => (settings[key] as string | undefined) ?? DEFAULT_CONFIG[key];
  return { ok: true, config: { sops: pick('sops'), out: pick('out'), ...(settings.paths === true ? { paths: true } : {}) } };
}

/** Absolute folders (and the paths fixtures switch): a flag wins over the config file, which wins over the defaults. */
export interface ProjectPaths {
  readonly root: string;
  readonly sopsDir: string;
  readonly outDir: string;
  /** Whether the build writes the golden paths fixtures (`paths` in the file, or `--paths`). */
  readonly paths: boolean;
}

export interface PathFlags {
  readonly sops?: string | undefined;
  readonly out?: string | undefined;
  readonly paths?: boolean | undefined;
}

export type ProjectLocation = { readonly ok: true; readonly paths: ProjectPaths } | { readonly ok: false; readonly error: string };

/** The app root found from `cwd` (nearest package.json), its config file, and the flags, as absolute folders. */
export function locateProject(cwd: string, flags: PathFlags): ProjectLocation {
  const root = findProjectRoot(cwd);
  const read = readConfig(root);
  if (!read.ok) return read;
  return { ok: true, paths: resolveProjectPaths(root, read.config, flags) };
}

export function resolveProjectPaths(root: string, config: SopConfig, flags: PathFlags): ProjectPaths {
  return {
    root,
    sopsDir: resolve(root, flags.sops ?? config.sops),
    outDir: resolve(root, flags.out ?? config.out),
    paths: flags.paths === true || config.paths === true,
  };
}

/** The file the build writes into the output folder and `sop serve` / `sop bundle` load. */
export function bundleFile(paths: ProjectPaths): string {
  return join(paths.outDir, 'sop-bundle.json');
}
