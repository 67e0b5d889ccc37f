/**
 * Prints each SOP's own files (ids, graph, machine) as soon as that SOP has compiled, while the others are
 * still compiling on worker threads, so a cold build's emitting overlaps its parsing instead of following it.
 * Those files depend on their own SOP alone (`emitAgentFiles`), so printing them early gives the same bytes as
 * printing them at the end.
 *
 * It is speculative: a SOP without errors of its own can still fail a cross-file check, and then the build
 * does not ask for its files. An emitter failure (a compiler bug) is kept with its SOP and reported by `agentFiles`
 * as that SOP's failure, so the build fails that file alone (SOP090) and emits the others.
 * The emitter (ts-morph) is loaded on the first SOP without errors, or up front with `preload` (when the SOPs
 * compile on other threads, this one is free to load it meanwhile). A caller that keeps `printed` across builds
 * gets the files of a compiled file it hands over again without printing them again.
 */
import type { CompiledSop } from '../contract/compiled-sop.js';
import type { CompiledFile } from './compile-sop.js';
import { hasErrors } from './diagnostics/diagnostic.js';
import type { EmitInput, GeneratedFile } from './emit/emit-project.js';

type Emitter = typeof import('./emit/emit-project.js');

export interface EmitWhileCompiling {
  /** Hands over a compiled SOP; its files are printed now if the emitter is loaded, else when it is. */
  readonly add: (compiled: CompiledFile) => void;
  /** The own files of each `clean` SOP; a SOP the emitter failed on is in `failed` instead, with the error. */
  readonly agentFiles: (clean: readonly CompiledFile[]) => Promise<AgentFiles>;
  /** The project files (index, registry, bundle), listing the `emitted` SOPs and the `carried` agents. */
  readonly projectFiles: (emitted: readonly CompiledFile[], carried: readonly CompiledSop[]) => Promise<GeneratedFile[]>;
}

/** The files printed for each compiled SOP, or the emitter's failure on it. */
export type PrintedFiles = Pick<WeakMap<CompiledFile, GeneratedFile[] | { readonly error: unknown }>, 'get' | 'has' | 'set'>;

export interface AgentFiles {
  readonly printed: readonly { readonly compiled: CompiledFile; readonly files: readonly GeneratedFile[] }[];
  readonly failed: readonly { readonly compiled: CompiledFile; readonly error: unknown }[];
}

export function emitWhileCompiling(
  options: { readonly preload?: boolean; readonly printed?: PrintedFiles | undefined } = {},
): EmitWhileCompiling {
  const printed: PrintedFiles = options.printed ?? new Map();
  const waiting: CompiledFile[] = [];
  let emitter: Emitter | undefined;
  let loading: Promise<Emitter> | undefined;

  const print = (loaded: Emitter, compiled: CompiledFile): void => {
    try {
      printed.set(compiled, loaded.emitAgentFiles(inputOf(compiled)));
    } catch (error) {
      printed.set(compiled, { error });
    }
  };
  const load = (): Promise<Emitter> => {
    loading ??= import('./emit/emit-project.js').then((loaded) => {
      emitter = loaded;
      for (const compiled of waiting.splice(0)) print(loaded, compiled);
      return loaded;
    });
    return loading;
  };
  // Awaited when anything is emitted; a failure to load surfaces there.
  if (options.preload) load().catch(() => undefined);

  return {
    add(compiled) {
      if (compiled.model === null || hasErrors(compiled.diagnostics) || printed.has(compiled)) return;
      if (emitter) print(emitter, compiled);
      else {
        waiting.push(compiled);
        load().catch(() => undefined);
      }
    },
    async agentFiles(clean) {
      const loaded = await load();
      const out: { printed: AgentFiles['printed'][number][]; failed: AgentFiles['failed'][number][] } = { printed: [], failed: [] };
      for (const compiled of clean) {
        if (!printed.has(compiled)) print(loaded, compiled);
        const result = printed.get(compiled)!;
        if ('error' in result) out.failed.push({ compiled, error: result.error });
        else out.printed.push({ compiled, files: result });
      }
      return out;
    },
    async projectFiles(emitted, carried) {
      return (await load()).emitProjectFiles(emitted.map(inputOf), carried);
    },
  };
}

function inputOf(compiled: CompiledFile): EmitInput {
  if (!compiled.model || !compiled.facts) throw new Error(`emit: ${compiled.file} has no model to emit.`);
  return { model: compiled.model, facts: compiled.facts };
}
