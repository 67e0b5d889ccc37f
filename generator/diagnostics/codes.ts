/**
 * The catalog of SOP diagnostics. Codes are stable: tools and CI annotations key on them, so a code is never
 * reused for another meaning. Each entry has one line of doc (its `title`) and a default severity.
 * Internal generator bugs are not in here: they are `InternalError`s and exit the CLI with code 2.
 */
import type { Severity } from './diagnostic.js';

export interface CodeInfo {
  readonly severity: Severity;
  readonly title: string;
}

export const DIAGNOSTIC_CODES = {
  // Frontmatter
  SOP001: { severity: 'error', title: 'The file has no YAML frontmatter block.' },
  SOP002: { severity: 'error', title: 'The frontmatter is not valid YAML.' },
  SOP003: { severity: 'error', title: 'A frontmatter key is missing or has the wrong type.' },
  SOP004: { severity: 'warning', title: 'Unknown frontmatter key.' },
  // Sections and the flowchart
  SOP010: { severity: 'error', title: 'No `## SOP Flowchart` section.' },
  SOP011: { severity: 'error', title: 'No ```mermaid block under `## SOP Flowchart`.' },
  SOP012: { severity: 'error', title: 'Mermaid flowchart syntax error.' },
  SOP013: { severity: 'warning', title: 'A `%%` comment shares a line with a statement; Mermaid renderers reject it.' },
  SOP014: { severity: 'error', title: 'Mermaid syntax this compiler does not support yet.' },
  SOP015: { severity: 'warning', title: 'A node is declared twice with different shapes or labels.' },
  SOP016: { severity: 'error', title: 'No `## Node Prompts` section.' },
  SOP017: { severity: 'error', title: 'An edge starts or ends at a subgraph or another edge, not at a node.' },
  SOP018: { severity: 'warning', title: 'Mermaid 11 reads this syntax but cannot draw it.' },
  SOP019: { severity: 'warning', title: "Unknown key in a node's `@{ … }` shape data; Mermaid ignores it." },
  // Node prompts
  SOP020: { severity: 'error', title: 'A node prompt names a node that is not in the flowchart.' },
  SOP021: { severity: 'error', title: 'The same node has two prompt sections.' },
  SOP022: { severity: 'error', title: 'A node prompt yaml block is not YAML or has keys of the wrong type.' },
  SOP023: { severity: 'warning', title: 'Unknown key in a node prompt yaml block.' },
  SOP024: { severity: 'error', title: 'Both node-prompt forms (`### NODE_ID` and a `node_prompts:` map) in one file.' },
  // Graph consistency
  SOP030: { severity: 'error', title: '`entry_node` is not a node of the flowchart.' },
  SOP031: { severity: 'error', title: 'A `hubs` entry is not a node of the flowchart.' },
  SOP032: { severity: 'error', title: 'Two SOP files declare the same `agent`.' },
  SOP033: { severity: 'error', title: 'Two agents map to the same exported TypeScript name.' },
  SOP034: { severity: 'error', title: 'A node id cannot name a state of the generated machine.' },
  SOP040: { severity: 'warning', title: "A node's `tools` names a tool missing from frontmatter `tools`." },
  SOP041: { severity: 'warning', title: 'A node is not reachable from the entry node.' },
  SOP042: { severity: 'warning', title: 'A non-terminal node from which no terminal node can be reached.' },
  SOP043: { severity: 'warning', title: 'A decision node with fewer than two outgoing edges.' },
  SOP044: { severity: 'warning', title: 'A decision node with an unlabelled outgoing edge.' },
  SOP046: { severity: 'warning', title: 'A node only ever appears as a bare id and looks like a typo of another node.' },
  SOP045: { severity: 'info', title: 'A frontmatter tool that no node uses.' },
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
