/**
 * One side of `sop diff`: a set of SOP sources (a git revision's, the working tree's, or one file) compiled as `sop
 * build` would (each file, then the checks across files, sub-flows included), into the agents they make, in memory
 * and without the emitter. A file with errors makes no agent; its errors are kept, so the diff can say that a side
 * does not build instead of reporting its agent as removed.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { composeSop } from '../../contract/composition.js';
import { entryOf } from '../../contract/name-table.js';
import { hashSource } from '../../contract/source-hash.js';
import type { SourceFile } from '../../generator/project/plan-build.js';
import { compiledAgentOf } from '../../generator/project/compiled-agent.js';
import { compositionDiagnostics } from '../../generator/project/composition-diagnostics.js';
import { checkProject } from '../../generator/check/check-project.js';
import { compileSop } from '../../generator/compile-sop.js';
import { compareDiagnostics, type Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import type { ModelMention } from '../../generator/model/sop-model.js';

export interface CompiledSide {
  /** What it is, for people: `main@3f2a1c9`, `working tree`, a file path. */
  readonly label: string;
  /** The agents of the files that compiled without errors, by name. */
  readonly agents: ReadonlyMap<string, CompiledSop>;
  /** Every error of the side (a file with one makes no agent). */
  readonly errors: readonly Diagnostic[];
  /** Agents declared by files with errors (their frontmatter read), by name: the file. Not built, not removed. */
  readonly unbuilt: ReadonlyMap<string, string>;
  /** The files read. */
  readonly files: readonly string[];
  /** Per agent built, its file and the node ids its prose and prompts mention (`sop diff` names a removed one). */
  readonly mentions: ReadonlyMap<string, { readonly file: string; readonly mentions: readonly ModelMention[] }>;
}

export function compileSide(label: string, sources: readonly SourceFile[]): CompiledSide {
  const compiled = [...sources]
    .sort((a, b) => (a.file < b.file ? -1 : 1))
    .map((source) => compileSop(source.file, source.raw, source.sourceHash ?? hashSource(source.raw)));
  const across = [...checkProject(compiled.flatMap((c) => (c.model === null ? [] : [c.model]))), ...compositionDiagnostics(compiled)];
  const errors = [...compiled.flatMap((c) => c.diagnostics), ...across].filter((d) => d.severity === 'error').sort(compareDiagnostics);
  const failing = new Set(errors.map((d) => d.file));
  const agents = new Map<string, CompiledSop>();
  const unbuilt = new Map<string, string>();
  const mentions = new Map<string, { file: string; mentions: readonly ModelMention[] }>();
  for (const c of compiled) {
    if (failing.has(c.file)) {
      if (c.model !== null && !unbuilt.has(c.model.agent)) unbuilt.set(c.model.agent, c.file);
      continue;
    }
    const agent = compiledAgentOf(c);
    if (agent.ok) {
      agents.set(agent.sop.meta.agent, agent.sop);
      mentions.set(agent.sop.meta.agent, { file: c.file, mentions: c.model?.mentions ?? [] });
    }
  }
  return { label, agents, errors, unbuilt, files: compiled.map((c) => c.file), mentions };
}

/** A side's agent expanded with the SOPs it calls on that side, or the agent itself when that fails. */
export function expandedOn(side: CompiledSide, sop: CompiledSop): CompiledSop {
  const composed = composeSop(sop, (name) => side.agents.get(name));
  return composed.ok ? composed.sop : sop;
}

/** The new version's id for an old id: its declared rename (`renames`, the expansion's included), else itself. */
export function renamedIn(head: Pick<CompiledSop, 'renames'> | undefined, id: string): string {
  return entryOf(head?.renames, id) ?? id;
}
