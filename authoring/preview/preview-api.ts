/**
 * The JSON the preview's server sends its page: a SOP's view (`/api/sop`) and a walk (`/api/walk`). Types only, with
 * no imports but the node details' own shape, so the browser script types what it receives without the compiler.
 */
import type { NodeDetails } from '../document/node-details-types.js';

export interface PreviewDiagnostic {
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly remediation: string | null;
  readonly line: number;
  readonly column: number;
  /** The node it is about, if any. */
  readonly node: string | null;
}

export interface PreviewView {
  readonly file: string;
  readonly hash: string;
  readonly agent: string | null;
  /** The Mermaid source with the nodes that have problems marked; null when the flowchart does not parse. */
  readonly diagram: string | null;
  readonly entry: string | null;
  readonly nodes: readonly NodeDetails[];
  readonly diagnostics: readonly PreviewDiagnostic[];
  /** Why the SOP cannot be walked (it has errors), or null when it can. */
  readonly walkProblem: string | null;
  /** The project's SOPs, to switch between. */
  readonly files: readonly string[];
}

export interface WalkStep {
  readonly move: string;
  /** The answer's JSON text, as the server sends it. */
  readonly answer: string;
  readonly valid: boolean;
  /** o200k tokens of the answer; null without the tokenizer. */
  readonly tokens: number | null;
  readonly path: readonly string[];
  readonly terminal: boolean;
}

export interface Walk {
  readonly entry: string;
  readonly steps: readonly WalkStep[];
  /** The legal moves from where the walk stands. */
  readonly next: readonly string[];
}

/** `/api/walk`'s answer: the walk, and why tokens are not counted (the tokenizer is not installed), if they are not. */
export interface WalkAnswer extends Walk {
  readonly tokenizer: string | null;
}
