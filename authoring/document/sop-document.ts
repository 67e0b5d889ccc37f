/**
 * One SOP as an editor holds it: its text, what the build API compiled from that text (model, diagnostics, parse),
 * and, built on first use, the index of every name written in it and the queries over its model. The language
 * server answers every request from one of these; the preview shows one.
 */
import type { DocumentBuild } from '../../generator/project/compile-document.js';
import { type ModelQueries, modelQueries } from './node-details.js';
import { type SopIndex, indexSop } from './sop-index.js';
import { type SourceLines, sourceLines } from './source-lines.js';

export interface SopDocument {
  /** Its project path, as diagnostics name it. */
  readonly file: string;
  readonly build: DocumentBuild;
  readonly lines: SourceLines;
  index(): SopIndex;
  /** Queries over the model; null when the file is too broken to model. */
  queries(): ModelQueries | null;
}

export function sopDocument(file: string, text: string, build: DocumentBuild): SopDocument {
  const lines = sourceLines(text);
  let index: SopIndex | undefined;
  let queries: ModelQueries | null | undefined;
  return {
    file,
    build,
    lines,
    index: () => {
      index ??= indexSop(build, lines);
      return index;
    },
    queries: () => {
      const { model, facts } = build.compiled;
      queries ??= model === null ? null : modelQueries(model, facts);
      return queries;
    },
  };
}
