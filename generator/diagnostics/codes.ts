/**
 * The registry of SOP diagnostics: per code its default severity, a one-line title, the remediation given when the
 * finding site has no more specific one (sites that can name the fix, such as the closest node id, say so in their
 * own remediation), and the section of `docs/sop-format.md` that states the rule. The README's table is generated
 * from it (`npm run docs:diagnostics`; a test checks it is current).
 *
 * Codes are stable: tools and CI annotations key on them, so a code is never renumbered or reused for another
 * meaning. Ranges: SOP00x frontmatter, SOP01x sections and the flowchart, SOP02x node prompts, SOP03x graph
 * consistency, SOP04x graph quality, SOP05x adherence (visit limits, policies, token budgets), SOP06x enforcement
 * (domain servers, evidence), SOP07x composition (sub-flows, fork/join), SOP08x evolution (renames across versions),
 * SOP09x the compiler itself (its limits, its own failures).
 */
import type { Severity } from './diagnostic.js';

/** Sections of `docs/sop-format.md` (their GitHub anchors); a test checks each one exists. */
export type DocsSection =
  | 'frontmatter'
  | 'sections'
  | 'the-flowchart'
  | 'node-prompts'
  | 'mentions-of-nodes'
  | 'visit-limits'
  | 'policies'
  | 'token-budgets'
  | 'domain-servers-and-evidence'
  | 'sub-flows'
  | 'fork-and-join'
  | 'versions-renames-and-migration'
  | 'diagnostics'
  | 'compiler-limits';

export interface CodeInfo {
  readonly severity: Severity;
  /** One line: what is wrong. */
  readonly title: string;
  /** What to change, in general; a diagnostic may carry a more specific remediation built where it is found. */
  readonly remediation: string;
  readonly docs: DocsSection;
}

export const DIAGNOSTIC_CODES = {
  // Frontmatter
  SOP001: {
    severity: 'error',
    title: 'The file has no YAML frontmatter block.',
    remediation: 'Start the file with a `---` line, the keys `agent`, `version` and `tools`, and a closing `---` line.',
    docs: 'frontmatter',
  },
  SOP002: {
    severity: 'error',
    title: 'The frontmatter is not valid YAML (a syntax error, an unresolved or recursive alias), or is never closed.',
    remediation: 'Fix the YAML at the position shown; quote values that contain `:` or `#`, and close the block with `---`.',
    docs: 'frontmatter',
  },
  SOP003: {
    severity: 'error',
    title: 'A frontmatter key is missing or has the wrong type.',
    remediation: 'Give the key the type the format asks for (see the frontmatter table of docs/sop-format.md).',
    docs: 'frontmatter',
  },
  SOP004: {
    severity: 'warning',
    title: 'Unknown frontmatter key, or a key an `mcp_servers` entry does not have (it is not used).',
    remediation: 'Remove the key or correct its spelling; the message names the closest known key.',
    docs: 'frontmatter',
  },
  // Sections and the flowchart
  SOP010: {
    severity: 'error',
    title: 'No `## SOP Flowchart` section.',
    remediation: 'Add a `## SOP Flowchart` section with a fenced `mermaid` block holding a `flowchart TD`.',
    docs: 'sections',
  },
  SOP011: {
    severity: 'error',
    title: 'No fenced `mermaid` block under `## SOP Flowchart`.',
    remediation: 'Put the flowchart in a fenced block whose info string is `mermaid`.',
    docs: 'the-flowchart',
  },
  SOP012: {
    severity: 'error',
    title: 'Mermaid flowchart syntax error.',
    remediation: 'Correct the flowchart at the token shown; Mermaid would refuse to draw it too.',
    docs: 'the-flowchart',
  },
  SOP013: {
    severity: 'warning',
    title: 'A `%%` comment shares a line with a statement; Mermaid renderers reject it.',
    remediation: 'Move the comment to a line of its own.',
    docs: 'the-flowchart',
  },
  SOP014: {
    severity: 'error',
    title: 'Mermaid syntax this compiler does not support yet (`flowchart-elk`, the direction `BR`).',
    remediation: 'Write the statement with the supported syntax listed in docs/sop-format.md.',
    docs: 'the-flowchart',
  },
  SOP015: {
    severity: 'warning',
    title: 'A node is declared twice with different shapes or labels.',
    remediation: 'Declare each node once with its shape and label, and refer to it by id elsewhere.',
    docs: 'the-flowchart',
  },
  SOP016: {
    severity: 'warning',
    title: 'No `## Node Prompts` section: the nodes have no prompts.',
    remediation: 'Add `## Node Prompts` after the flowchart, with one `### NODE_ID` subsection per node that needs instructions.',
    docs: 'sections',
  },
  SOP017: {
    severity: 'error',
    title: 'An edge starts or ends at a subgraph or another edge, not at a node.',
    remediation:
      'Point the edge at the node inside the subgraph where the conversation goes next; a subgraph only groups nodes, and an edge id only names an edge.',
    docs: 'the-flowchart',
  },
  SOP018: {
    severity: 'warning',
    title: 'Mermaid 11 reads this syntax but cannot draw it.',
    remediation: 'Use a shape or label Mermaid draws (the message names it), so the diagram the agent and people see matches the graph.',
    docs: 'the-flowchart',
  },
  SOP019: {
    severity: 'warning',
    title: "Unknown key in a node's `@{ … }` shape data; Mermaid ignores it.",
    remediation: 'Remove the key or correct its spelling; the message names the closest key Mermaid knows.',
    docs: 'the-flowchart',
  },
  // Node prompts
  SOP020: {
    severity: 'error',
    title: 'A node prompt names a node that is not in the flowchart.',
    remediation: 'Use the id of a flowchart node (the message names the closest one), or add the node to the flowchart.',
    docs: 'node-prompts',
  },
  SOP021: {
    severity: 'error',
    title: 'The same node has two prompt sections.',
    remediation: 'Merge the two sections into one.',
    docs: 'node-prompts',
  },
  SOP022: {
    severity: 'error',
    title: 'A node prompt yaml block is not valid YAML or has keys of the wrong type.',
    remediation: 'Use `tools: [tool_a, tool_b]` and `examples:` as a list of `{user: "...", agent: "..."}`.',
    docs: 'node-prompts',
  },
  SOP023: {
    severity: 'warning',
    title: 'Unknown key in a node prompt yaml block.',
    remediation: 'Remove the key or correct its spelling; the message names the closest known key.',
    docs: 'node-prompts',
  },
  SOP024: {
    severity: 'error',
    title: 'Both node-prompt forms (`### NODE_ID` and a `node_prompts:` map) in one file.',
    remediation: 'Use one form: move each entry of `node_prompts:` under its own `### NODE_ID` heading, or the reverse.',
    docs: 'node-prompts',
  },
  SOP025: {
    severity: 'warning',
    title: 'The node-prompt section holds no prompts: the nodes have no prompts.',
    remediation:
      'Write one `### NODE_ID` subsection per node that needs instructions, or a fenced `yaml` block with a `node_prompts:` map.',
    docs: 'node-prompts',
  },
  // Graph consistency
  SOP026: {
    severity: 'warning',
    title: 'A `style`, `class` or `click` statement names no node of the flowchart.',
    remediation:
      'Name a node of the flowchart (a renamed node keeps its old id here unless the rename reaches it); for `style`, Mermaid otherwise draws a new, unconnected node of that name.',
    docs: 'the-flowchart',
  },
  SOP030: {
    severity: 'error',
    title: '`entry_node` is not a node of the flowchart.',
    remediation: 'Set `entry_node` to the node where every conversation starts (default `START`).',
    docs: 'frontmatter',
  },
  SOP031: {
    severity: 'error',
    title: 'A `hubs` entry is not a node of the flowchart.',
    remediation: 'List only flowchart node ids in `hubs`; the message names the closest one.',
    docs: 'frontmatter',
  },
  SOP032: {
    severity: 'error',
    title: 'Two SOP files declare the same `agent`.',
    remediation: 'Give each SOP file its own `agent` name.',
    docs: 'frontmatter',
  },
  SOP033: {
    severity: 'error',
    title: 'Two agents map to the same exported TypeScript name.',
    remediation: 'Rename one of the agents so their names differ in more than underscores.',
    docs: 'frontmatter',
  },
  SOP034: {
    severity: 'error',
    title: 'A node id cannot name a state of the generated machine.',
    remediation: 'Use letters, digits and underscores, e.g. `CHECK_ORDER`.',
    docs: 'the-flowchart',
  },
  // Graph quality
  SOP040: {
    severity: 'warning',
    title: "A node's `tools` names a tool missing from frontmatter `tools`.",
    remediation: 'Add the tool to frontmatter `tools`, or correct its name (the message names the closest declared tool).',
    docs: 'node-prompts',
  },
  SOP041: {
    severity: 'warning',
    title: 'A node is not reachable from the entry node.',
    remediation: 'Add an edge into the node (check the edges meant to lead there for a misspelt id), or remove it.',
    docs: 'the-flowchart',
  },
  SOP042: {
    severity: 'warning',
    title: 'A non-terminal node from which no terminal node can be reached.',
    remediation: 'Add an edge from the node (or from the loop it is in) to an end node.',
    docs: 'the-flowchart',
  },
  SOP043: {
    severity: 'warning',
    title: 'A decision node with fewer than two outgoing edges.',
    remediation: 'Give a decision at least two labelled branches (`-->|yes|`, `-->|no|`), or make it a rectangle `[...]`.',
    docs: 'the-flowchart',
  },
  SOP044: {
    severity: 'warning',
    title: 'A decision node with an unlabelled outgoing edge.',
    remediation: 'Label the edge with the condition under which the agent takes it, e.g. `-->|yes|`.',
    docs: 'the-flowchart',
  },
  SOP045: {
    severity: 'info',
    title: 'A frontmatter tool that no node uses.',
    remediation: 'Name it in the `tools` of the node(s) where the agent may call it, or remove it.',
    docs: 'node-prompts',
  },
  SOP046: {
    severity: 'warning',
    title: 'A node only ever appears as a bare id and looks like a typo of another node.',
    remediation: 'Correct the id to the node meant (the message names it), or declare the node with a label `ID[...]`.',
    docs: 'the-flowchart',
  },
  SOP047: {
    severity: 'warning',
    title: 'A dead end: a node with no prompt and no outgoing edge that is not drawn as an end (often a new id an edge made).',
    remediation: 'Give the node a prompt and an edge on, or draw it as an end (`ID([...])`, `ID((...))`).',
    docs: 'the-flowchart',
  },
  SOP048: {
    severity: 'warning',
    title: 'The prose or a prompt names a node the flowchart does not have (in backticks, `goto_node("…")`, after "go to").',
    remediation: 'Correct the id to a node of the flowchart (the message names the closest one), or write the word without backticks.',
    docs: 'mentions-of-nodes',
  },
  // Adherence: visit limits, policies, token budgets
  SOP050: {
    severity: 'error',
    title: 'An escalation node (`escalation_node`, `escalate_to`) is not a node of the flowchart.',
    remediation: 'Name the node a run goes to when a node has used up its visits; the message names the closest node id.',
    docs: 'visit-limits',
  },
  SOP051: {
    severity: 'error',
    title: 'A node has `max_visits` but no escalation node.',
    remediation: 'Add `escalate_to: NODE` next to `max_visits`, or `escalation_node: NODE` to the frontmatter.',
    docs: 'visit-limits',
  },
  SOP052: {
    severity: 'error',
    title: 'An escalation node has a visit limit of its own: a run that used up both would have nowhere to go.',
    remediation: 'Remove `max_visits` from the escalation node, or escalate to another node.',
    docs: 'visit-limits',
  },
  SOP053: {
    severity: 'warning',
    title: '`escalate_to` without `max_visits` has no effect.',
    remediation: 'Add `max_visits: N` to the node, or remove `escalate_to`.',
    docs: 'visit-limits',
  },
  SOP054: {
    severity: 'error',
    title: 'A policy names a node, pattern or tool that matches nothing, or guards no node.',
    remediation: 'Correct the name (the message names the closest one), or remove it from the policy.',
    docs: 'policies',
  },
  SOP055: {
    severity: 'error',
    title: 'A policy does not hold: a path from the entry node reaches a guarded node without passing a required one.',
    remediation:
      'Change the flowchart so the path shown passes a required node first (or stop offering the tool at the node it reaches), or correct the policy.',
    docs: 'policies',
  },
  SOP056: {
    severity: 'error',
    title: "A policy's `confirmation` is not a valid regular expression, or has no tools to confirm.",
    remediation:
      'Write `confirmation: true` or a JavaScript regular expression, and name the tools it confirms in `every_path_to: {tools: [...]}`.',
    docs: 'policies',
  },
  SOP057: {
    severity: 'warning',
    title: 'A prompt or `goto_node` answer is over its `token_budget`.',
    remediation: 'Shorten the text shown (or its examples), or raise the budget; `sop build --report` lists every count.',
    docs: 'token-budgets',
  },
  SOP058: {
    severity: 'warning',
    title: 'A `token_budget` was not checked: the optional package gpt-tokenizer is not installed.',
    remediation: 'Install it beside the toolkit (`npm install --save-dev gpt-tokenizer@4`), or remove the budget.',
    docs: 'token-budgets',
  },
  // Enforcement: domain servers and evidence
  SOP060: {
    severity: 'error',
    title: 'A domain server has both or neither of `command` and `url`, or a key of the other kind.',
    remediation: 'Give a stdio server a `command` (with `args`, `env`, `cwd`), or an HTTP server a `url` (with `headers`).',
    docs: 'domain-servers-and-evidence',
  },
  SOP061: {
    severity: 'error',
    title: 'Two domain servers have the same name.',
    remediation: 'Give each server in `mcp_servers` its own name.',
    docs: 'domain-servers-and-evidence',
  },
  SOP062: {
    severity: 'error',
    title: 'A secret is written into the SOP (a credential header, variable or URL password).',
    remediation: "Put it in the gateway's environment and write `${VAR}` where it was.",
    docs: 'domain-servers-and-evidence',
  },
  SOP063: {
    severity: 'error',
    title: 'A `${...}` reference in `mcp_servers` is malformed.',
    remediation: 'Write `${NAME}` or `${NAME:-default}`, NAME being letters, digits and underscores.',
    docs: 'domain-servers-and-evidence',
  },
  SOP064: {
    severity: 'error',
    title: "A node's `evidence` names a tool the node does not offer, or the node offers no tools.",
    remediation: "Name tools of the node's own `tools` list (the message names the closest one), or give the node tools.",
    docs: 'domain-servers-and-evidence',
  },
  SOP065: {
    severity: 'warning',
    title: 'A terminal node requires evidence: a run never goes on from it, so the requirement has no effect.',
    remediation: 'Move `evidence` to the node where the call is made before the run goes on, or remove it.',
    docs: 'domain-servers-and-evidence',
  },
  SOP066: {
    severity: 'error',
    title: 'A policy with `evidence: true` passes a node that requires no evidence.',
    remediation: 'Add `evidence` to the node (which of its tools must succeed there), or remove `evidence: true` from the policy.',
    docs: 'domain-servers-and-evidence',
  },
  SOP067: {
    severity: 'error',
    title:
      "`sop build --check-tools`: a SOP names a tool that none of its domain servers offers, an `about` argument the tool does not take, or a condition's field or value the tool's output schema does not have.",
    remediation: 'Correct the name (the message names the closest tool the servers offer), or add the server that offers it.',
    docs: 'domain-servers-and-evidence',
  },
  SOP068: {
    severity: 'error',
    title:
      'A `when` or `shows` condition does not parse, names a node that is not a successor or a tool that is not in `tools`, or gives an operator the wrong kind of value.',
    remediation:
      'Write `TOOL.FIELD OP VALUE` (in `shows`: `FIELD OP VALUE`, or a bare `FIELD`), e.g. `get_order_details.status == pending`, with a list after `in` and a number after `<`; key `when` by successors of the node.',
    docs: 'domain-servers-and-evidence',
  },
  SOP069: {
    severity: 'error',
    title: "A `when` condition reads a tool's answer that some path to the node never read: no node on it offers the tool.",
    remediation:
      'Offer the tool on every path to the node (at the node itself, or at a step every path passes), or read a tool that is; the message shows a path that never reads it.',
    docs: 'domain-servers-and-evidence',
  },
  // Composition: sub-flows and fork/join
  SOP070: {
    severity: 'warning',
    title: 'A sub-flow node is not drawn as a subroutine.',
    remediation: 'Draw it with the subroutine shape, `CALL[[Label]]`, so that readers of the chart see that it calls another SOP.',
    docs: 'sub-flows',
  },
  SOP071: {
    severity: 'error',
    title:
      'A node has keys that do not go together: a sub-flow node with `tools`, `evidence` or `fork`/`join`, a fork that is also a join, `exits` without `subflow`.',
    remediation:
      'A sub-flow node is a call, never a step the agent stops at: move tools and evidence to a node of the called SOP, and keep `fork`, `join` and `subflow` on separate nodes.',
    docs: 'sub-flows',
  },
  SOP072: {
    severity: 'error',
    title: 'A sub-flow node calls an agent that no SOP of the project declares.',
    remediation: 'Name the `agent` of a SOP in the SOP folder (the message names the closest one).',
    docs: 'sub-flows',
  },
  SOP073: {
    severity: 'error',
    title: 'Sub-flows call each other in a cycle: a SOP would call itself.',
    remediation: 'Break the cycle: a called SOP may not call, directly or through others, a SOP that calls it.',
    docs: 'sub-flows',
  },
  SOP074: {
    severity: 'error',
    title:
      "A terminal node of the called SOP maps to no edge of the sub-flow node, or an `exits` entry names no terminal of it, or a node that is not the sub-flow node's successor.",
    remediation: "Label an edge of the sub-flow node with the terminal's id or label, or map it in `exits: {TERMINAL: NEXT_NODE}`.",
    docs: 'sub-flows',
  },
  SOP075: {
    severity: 'warning',
    title: 'An edge of a sub-flow node that no terminal of the called SOP leads to.',
    remediation: "Label the edge with a terminal's id or label, map a terminal to it in `exits`, or remove it.",
    docs: 'sub-flows',
  },
  SOP076: {
    severity: 'error',
    title:
      'A sub-flow cannot be expanded: the called SOP does not compile, its entry node has `max_visits`, or the expansion has too many nodes.',
    remediation: 'Move the visit limit to a node after the entry node, or call fewer or smaller SOPs.',
    docs: 'sub-flows',
  },
  SOP077: {
    severity: 'error',
    title:
      'A fork or join is ill-formed: its join is not a node, it has fewer than two branches, two forks share a join, a `join` no fork names, or a fork or join with `max_visits`.',
    remediation:
      'Give each fork its own join (`fork: JOIN_ID`), two or more edges to the first nodes of its branches, and no visit limit on either.',
    docs: 'fork-and-join',
  },
  SOP078: {
    severity: 'error',
    title:
      'A branch of a fork does not stay in it: it cannot reach the join, reaches a terminal, another fork or a hub, or one of its nodes is entered from outside the fork.',
    remediation:
      'Make every branch a walk from the fork to its join: edges into a branch only from the fork or the same branch, and a way from each of its nodes to the join.',
    docs: 'fork-and-join',
  },
  SOP079: {
    severity: 'warning',
    title:
      'A join has an edge for one outcome (`passed` or `failed`) and none for the other, nor an unlabelled one: a join that comes out the other way has nowhere to go.',
    remediation: 'Add an edge labelled `failed` (or `passed`) from the join, or an unlabelled one.',
    docs: 'fork-and-join',
  },
  // Evolution
  SOP080: {
    severity: 'error',
    title: 'A `renames` entry maps to a node that does not exist, or renames a node that still exists.',
    remediation:
      'Map each old node id to the node it is now (`renames: {OLD_ID: NEW_ID}`), and remove entries whose old id is still a node.',
    docs: 'versions-renames-and-migration',
  },
  // The compiler itself
  SOP090: {
    severity: 'error',
    title: 'The compiler failed on this file (a bug in sop-toolkit, not in the SOP).',
    remediation: 'Please report it with the file; the other files were compiled, and this one kept its last good output.',
    docs: 'diagnostics',
  },
  SOP091: {
    severity: 'info',
    title: 'More diagnostics in this file than are shown.',
    remediation: 'Fix the problems shown and build again to see the rest.',
    docs: 'diagnostics',
  },
  SOP092: {
    severity: 'error',
    title: "The file exceeds a limit of the compiler (its size, a YAML block's size, nesting or alias expansion, the flowchart's size).",
    remediation: 'Split or simplify the part shown; the limits are listed in docs/sop-format.md.',
    docs: 'compiler-limits',
  },
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
