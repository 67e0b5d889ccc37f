/**
 * Prints each SOP's own files (ids, graph, machine) as soon as that SOP has compiled, while the others are
 * still compiling on worker threads, so a cold build's emitting overlaps its parsing instead of following it.
 * Those files depend on their own SOP alone (`emitAgentFiles`), so printing them early gives the same bytes as
 * printing them at the end.
 *
 * It is speculative: a SOP without errors of its own can still fail a cross-file check, and then the build
 * does not ask for its files. An emitter failure (a compiler bug) is kept with its SOP and thrown only when
 * that SOP's files are asked for, so it surfaces exactly where emitting everything at the end would throw it.
 * The emitter (ts-morph) is loaded on the first SOP without errors, or up front with `preload` (when the SOPs
 * compile on other threads, this one is free to load it meanwhile).
 */
import type { CompiledSop } from '../contract/compiled-sop.js';
import type { CompiledFile } from './compile-sop.js';
import { hasErrors } from './diagnostics/diagnostic.js';
import type { EmitInput, GeneratedFile } from './emit/emit-project.js';
import { compareCodeUnits } from './model/naming.js';

type Emitter = typeof import('./emit/emit-project.js');

export interface EmitWhileCompiling {
  /** Hands over a compiled SOP; its files are printed now if the emitter is loaded, else when it is. */
  readonly add: (compiled: CompiledFile) => void;
  /** The files of the `clean` SOPs and the project files (listing `carried` too), sorted by path. */
  readonly finish: (clean: readonly CompiledFile[], carried: readonly CompiledSop[]) => Promise<GeneratedFile[]>;
}

export function emitWhileCompiling(options: { readonly preload?: boolean } = {}): EmitWhileCompiling {
  const printed = new Map<CompiledFile, GeneratedFile[] | { readonly error: unknown }>();
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
  // Awaited in `finish` when anything is emitted; a failure to load surfaces there.
  if (options.preload) load().catch(() => undefined);

  return {
    add(compiled) {
      if (compiled.model === null || hasErrors(compiled.diagnostics)) return;
      if (emitter) print(emitter, compiled);
      else {
        waiting.push(compiled);
        load().catch(() => undefined);
      }
    },
    async finish(clean, carried) {
      const loaded = await load();
      const files = clean.flatMap((compiled) => {
        if (!printed.has(compiled)) print(loaded, compiled);
        const result = printed.get(compiled)!;
        if ('error' in result) throw result.error;
        return result;
      });
      files.push(...loaded.emitProjectFiles(clean.map(inputOf), carried));
      return files.sort((a, b) => compareCodeUnits(a.path, b.path));
    },
  };
}

function inputOf(compiled: CompiledFile): EmitInput {
  if (!compiled.model || !compiled.facts) throw new Error(`emit: ${compiled.file} has no model to emit.`);
  return { model: compiled.model, facts: compiled.facts };
}
