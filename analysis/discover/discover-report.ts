/**
 * What `sop discover` reports (`sop-discover/1`): the draft's nodes and intents, the rules it states and why, how
 * well the logs fit it (`fitness`: the mean of `sop replay`'s fitness over the conversations mined) and what it
 * allows that no log did, the variants that fail most (with outcomes), and, with `--against`, the differences
 * between practice and the written SOP. Plain data: the CLI renders it as text and markdown (`render-discover.ts`)
 * or JSON.
 */
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import type { OutcomeTable } from '../replay/batch-outcomes.js';
import type { FitSummary } from './draft-fit.js';
import type { DraftGraph, DraftIntent } from './draft-graph.js';
import type { DraftRules } from './draft-rules.js';
import type { Intents } from './intents.js';
import { INFO } from './intents.js';
import type { ObservedLog } from './observed-log.js';
import type { Difference, PracticeSummary } from './practice.js';
import type { LogProblems } from './read-logs.js';
import { serverName } from './tool-prefixes.js';

export const DISCOVER_FORMAT = 'sop-discover/1';

export interface DiscoverReport {
  readonly format: typeof DISCOVER_FORMAT;
  readonly agent: string;
  /** Where the draft was written (set by the command line), or null when it was printed. */
  readonly out: string | null;
  readonly noise: number;
  /** Conversations mined. */
  readonly conversations: number;
  /** Conversations read (a Claude Code log resumed by a later one is counted once, in the later one). */
  readonly read: number;
  readonly superseded: readonly string[];
  readonly only_successes: boolean;
  readonly outcomes: {
    readonly source: string | null;
    readonly successes: number;
    readonly failures: number;
    readonly unknown: number;
    readonly unmatched_keys: readonly string[];
  };
  readonly nodes: readonly {
    readonly id: string;
    readonly kind: 'start' | 'step' | 'decision' | 'hub' | 'end';
    readonly tools: readonly string[];
    /** The intent's node name it belongs to, `opening`, or null. */
    readonly part: string | null;
  }[];
  readonly edges: number;
  readonly intents: readonly { readonly name: string; readonly label: string; readonly requests: number; readonly end: string }[];
  /** Intents seen too rarely to draft (fewer requests than `minimum`). */
  readonly rare_intents: { readonly minimum: number; readonly intents: readonly { readonly intent: string; readonly requests: number }[] };
  readonly rules: {
    readonly evidence: readonly {
      readonly node: string;
      readonly tools: readonly string[];
      readonly about: string | null;
      readonly because: string;
    }[];
    readonly conditions: readonly { readonly node: string; readonly target: string; readonly when: string; readonly because: string }[];
    readonly policies: readonly {
      readonly id: string;
      readonly tools: readonly string[];
      readonly passes: readonly string[];
      readonly confirmation: boolean;
    }[];
  };
  /** Mean fitness of the conversations mined against the draft, by `sop replay`'s alignment. */
  readonly fitness: number | null;
  readonly fit: FitSummary;
  /** The compiler's warnings on the draft (it has no errors: a draft with errors is not written). */
  readonly warnings: readonly { readonly code: string; readonly line: number; readonly message: string }[];
  /**
   * The clients' prefixes taken off the tools' names (`mcp_retail-tools_`, `retail-tools-`, Claude Code's
   * `mcp__retail-tools__`), the server each names, the tools behind it and their calls: those tools are mined, drafted
   * and scored by their bare names (`tool-prefixes.ts`).
   */
  readonly tool_prefixes: readonly {
    readonly prefix: string;
    readonly server: string;
    readonly tools: readonly string[];
    readonly calls: number;
  }[];
  /** Calls not mined: the toolkit's own tools and a client's built-ins. */
  readonly left_out_calls: readonly { readonly tool: string; readonly kind: 'toolkit' | 'client'; readonly calls: number }[];
  readonly readers: readonly { readonly reader: string; readonly conversations: number }[];
  readonly problems: {
    readonly errors: readonly { readonly file: string; readonly error: string }[];
    readonly skipped: readonly { readonly file: string; readonly reason: string }[];
  };
  /** With --against: the written SOP, how well the logs fit it, and the differences (also in `differences`). */
  readonly against?: Omit<PracticeSummary, 'differences'>;
  readonly differences?: readonly Difference[];
}

export interface ReportParts {
  readonly agent: string;
  readonly noise: number;
  readonly onlySuccesses: boolean;
  readonly log: ObservedLog;
  readonly mined: number;
  readonly superseded: readonly string[];
  readonly outcomes: { readonly table: OutcomeTable; readonly name: string } | undefined;
  readonly matchedKeys: ReadonlySet<string>;
  readonly graph: DraftGraph;
  readonly intents: Intents;
  readonly drafted: readonly DraftIntent[];
  readonly rules: DraftRules;
  readonly warnings: readonly Diagnostic[];
  readonly fit: FitSummary;
  readonly practice: PracticeSummary | undefined;
  readonly problems: LogProblems;
}

export function discoverReport(parts: ReportParts): DiscoverReport {
  const { log, graph } = parts;
  const successes = log.conversations.filter((c) => c.success === true).length;
  const failures = log.conversations.filter((c) => c.success === false).length;
  const tool = (t: number): string => log.tools[t]!;
  const intentName = (intent: number): string => (intent === INFO ? '(reads only)' : tool(intent));
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    format: DISCOVER_FORMAT,
    agent: parts.agent,
    out: null,
    noise: parts.noise,
    conversations: parts.mined,
    read: log.conversations.length,
    superseded: parts.superseded,
    only_successes: parts.onlySuccesses,
    outcomes: {
      source: parts.outcomes !== undefined ? `--outcomes ${parts.outcomes.name}` : successes + failures > 0 ? 'the τ²-bench rewards' : null,
      successes,
      failures,
      unknown: log.conversations.length - successes - failures,
      unmatched_keys:
        parts.outcomes === undefined ? [] : [...parts.outcomes.table.keys()].filter((key) => !parts.matchedKeys.has(key)).sort(byName),
    },
    nodes: graph.nodes.map((node) => ({
      id: node.id,
      kind: node.shape,
      tools: node.tools.map(tool),
      part: node.intent === null ? null : node.intent === 'opening' ? 'opening' : parts.drafted[node.intent]!.name,
    })),
    edges: graph.edges.length,
    intents: parts.drafted.map((intent, i) => ({ name: intent.name, label: intent.label, requests: intent.weight, end: graph.ends[i]! })),
    rare_intents: {
      minimum: parts.intents.minimum,
      intents: parts.intents.rare.map((g) => ({ intent: intentName(g.intent), requests: g.segments.length })),
    },
    rules: {
      evidence: [...parts.rules.evidence].map(([node, e]) => ({ node, tools: e.tools, about: e.about, because: e.because })),
      conditions: [...parts.rules.conditions].map(([node, c]) => ({ node, target: c.target, when: c.text, because: c.because })),
      policies: parts.rules.policies.map((p) => ({ id: p.id, tools: p.tools, passes: p.passes, confirmation: p.confirmation })),
    },
    fitness: parts.fit.fitness,
    fit: parts.fit,
    warnings: parts.warnings.map((d) => ({ code: d.code, line: d.line, message: d.message })),
    tool_prefixes: [...log.prefixes]
      .map(([prefix, entry]) => ({ prefix, server: serverName(prefix), tools: [...entry.tools].sort(byName), calls: entry.calls }))
      .sort((a, b) => byName(a.prefix, b.prefix)),
    left_out_calls: [...log.leftOut]
      .map(([name, entry]) => ({ tool: name, kind: entry.kind, calls: entry.count }))
      .sort((a, b) => b.calls - a.calls || byName(a.tool, b.tool)),
    readers: [...log.readers].map(([reader, conversations]) => ({ reader, conversations })).sort((a, b) => byName(a.reader, b.reader)),
    problems: { errors: parts.problems.errors, skipped: parts.problems.skipped },
    ...(parts.practice === undefined
      ? {}
      : {
          against: {
            agent: parts.practice.agent,
            file: parts.practice.file,
            conversations: parts.practice.conversations,
            fitness: parts.practice.fitness,
          },
          differences: parts.practice.differences,
        }),
  };
}
