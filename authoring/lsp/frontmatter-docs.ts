/**
 * One paragraph per frontmatter key, for hover and completion, each with the section of `docs/sop-format.md` that
 * says more. The keys themselves come from the compiler's schema (`frontmatterSchema` and the strict maps inside it):
 * a test checks that every key the schema accepts has its paragraph here, so the two cannot drift apart.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${1:text}` is an LSP snippet's tab stop, not a template.
import type { DocsSection } from '../../generator/diagnostics/codes.js';

export interface KeyDoc {
  readonly summary: string;
  /** How it is written, for completion. */
  readonly snippet: string;
  readonly docs: DocsSection;
}

/** Top-level frontmatter keys. */
export const FRONTMATTER_KEYS: ReadonlyMap<string, KeyDoc> = new Map<string, KeyDoc>([
  [
    'agent',
    {
      summary:
        'Required. The agent name, `[a-z][a-z0-9_]*`, unique across the project: the key of the registry, of `generated/<agent>/` and of `load_graph`.',
      snippet: 'agent: ${1:my_agent}',
      docs: 'frontmatter',
    },
  ],
  [
    'version',
    {
      summary: 'Required. The SOP version, a string (`"1.0"`) or a number written as the text it is (`1.10` stays `"1.10"`).',
      snippet: 'version: "${1:1.0}"',
      docs: 'frontmatter',
    },
  ],
  [
    'description',
    {
      summary: 'Optional. One line about the agent, shown by `inspect agents` and in the generated registry.',
      snippet: 'description: ${1}',
      docs: 'frontmatter',
    },
  ],
  [
    'entry_node',
    {
      summary: 'Optional (default `START`). The node every run starts at; always a legal move (it restarts the path).',
      snippet: 'entry_node: ${1:START}',
      docs: 'the-flowchart',
    },
  ],
  [
    'hubs',
    {
      summary:
        'Optional. Nodes the agent may jump back to once reached through the flowchart since the last restart (a router such as `ROUTE`); never a way to skip a step.',
      snippet: 'hubs: [${1:ROUTE}]',
      docs: 'the-flowchart',
    },
  ],
  [
    'model',
    {
      summary:
        'Optional. The model the agent is meant for: `provider`, `name`, `temperature`, `max_tokens` (and any other setting), passed through to `load_graph`.',
      snippet: 'model: { provider: ${1:anthropic}, name: ${2} }',
      docs: 'frontmatter',
    },
  ],
  [
    'mcp_servers',
    {
      summary:
        'Optional. The MCP servers holding the domain tools, which `sop serve --gateway` connects to: each with a `name`, and a `command` (with `args`, `env`, `cwd`) or a `url` (with `headers`); values may name the environment as `${VAR}`.',
      snippet: 'mcp_servers:\n  - name: ${1}\n    command: ${2:node}\n    args: [${3}]',
      docs: 'domain-servers-and-evidence',
    },
  ],
  [
    'tools',
    {
      summary:
        'Required (may be `[]`). Every domain tool a node may name in its `tools`; a node naming another is an error (SOP040), a tool no node uses is reported (SOP045).',
      snippet: 'tools: [${1}]',
      docs: 'frontmatter',
    },
  ],
  [
    'escalation_node',
    {
      summary: 'Optional. Where a node that used up its `max_visits` escalates to, unless it names its own `escalate_to`.',
      snippet: 'escalation_node: ${1}',
      docs: 'visit-limits',
    },
  ],
  [
    'policies',
    {
      summary:
        'Optional. What must hold on every path, proved by `sop build` over the whole graph and checked again by `sop replay`: a map from a policy id to `{every_path_to, passes}` (optional `description`, `confirmation`, `severity`).',
      snippet: 'policies:\n  ${1:policy_id}:\n    every_path_to: ${2}\n    passes: ${3}',
      docs: 'policies',
    },
  ],
  [
    'token_budget',
    {
      summary:
        'Optional. Token limits (o200k) for `node_prompt`, `system_prompt` and `goto_answer`; an overrun is a warning (SOP057). Needs the optional `gpt-tokenizer`.',
      snippet: 'token_budget: { node_prompt: ${1:250}, system_prompt: ${2:2500}, goto_answer: ${3:400} }',
      docs: 'token-budgets',
    },
  ],
  [
    'renames',
    {
      summary:
        'Optional. Node ids an earlier version had, each mapped to the node it is now: `sop diff` shows a rename, and `sop runs migrate` moves runs standing on the old id (SOP080).',
      snippet: 'renames: { ${1:OLD_ID}: ${2:NEW_ID} }',
      docs: 'versions-renames-and-migration',
    },
  ],
]);

/** Keys of the maps inside the frontmatter, by the key that holds them. */
export const NESTED_KEYS: ReadonlyMap<string, ReadonlyMap<string, KeyDoc>> = new Map([
  [
    'token_budget',
    new Map<string, KeyDoc>([
      [
        'node_prompt',
        {
          summary: "Most tokens (o200k) of one node's prompt; an overrun is reported at the prompt.",
          snippet: 'node_prompt: ${1:250}',
          docs: 'token-budgets',
        },
      ],
      [
        'system_prompt',
        {
          summary: 'Most tokens of the system prompt (every section before `## Node Prompts`).',
          snippet: 'system_prompt: ${1:2500}',
          docs: 'token-budgets',
        },
      ],
      [
        'goto_answer',
        {
          summary: "Most tokens of a node's typical `goto_node` answer, reached along the shortest path from the entry node.",
          snippet: 'goto_answer: ${1:400}',
          docs: 'token-budgets',
        },
      ],
    ]),
  ],
  [
    'policy',
    new Map<string, KeyDoc>([
      ['description', { summary: 'One line, shown with violations.', snippet: 'description: ${1}', docs: 'policies' }],
      [
        'every_path_to',
        {
          summary: 'The guarded nodes (a selector): every path from the entry node to one of them passes a `passes` node first.',
          snippet: 'every_path_to: ${1}',
          docs: 'policies',
        },
      ],
      [
        'passes',
        {
          summary: 'The nodes a path must pass first (a selector); a guarded node that is itself one of them counts as passed.',
          snippet: 'passes: ${1}',
          docs: 'policies',
        },
      ],
      [
        'confirmation',
        {
          summary:
            "`true`, or a regular expression: every call of a guarded tool needs the user's explicit yes at the `passes` node on the path (checked by `sop replay`).",
          snippet: 'confirmation: ${1:true}',
          docs: 'policies',
        },
      ],
      [
        'evidence',
        {
          summary:
            '`true`: every `passes` node must require `evidence`, so that in gateway mode passing one is proved by a successful call, not only declared by a move (SOP066).',
          snippet: 'evidence: true',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'severity',
        {
          summary: '`error` (default) or `warning`: how a violation is reported.',
          snippet: 'severity: ${1|error,warning|}',
          docs: 'policies',
        },
      ],
    ]),
  ],
  [
    'mcp_server',
    new Map<string, KeyDoc>([
      [
        'name',
        {
          summary: "The server's name in the gateway's errors and audit log; unique.",
          snippet: 'name: ${1}',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'command',
        {
          summary: 'A stdio server: the command the gateway starts, once per process.',
          snippet: 'command: ${1:node}',
          docs: 'domain-servers-and-evidence',
        },
      ],
      ['args', { summary: "The command's arguments.", snippet: 'args: [${1}]', docs: 'domain-servers-and-evidence' }],
      [
        'env',
        {
          summary:
            "Variables the stdio server gets (besides PATH, HOME and the like); secrets as `${VAR}` from the gateway's environment, never written here (SOP062).",
          snippet: 'env: { ${1:NAME}: "\\${${2:VAR}}" }',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'cwd',
        {
          summary: "The stdio server's working folder, relative to the app root.",
          snippet: 'cwd: ${1:.}',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'url',
        { summary: 'A Streamable HTTP server (either protocol era).', snippet: 'url: ${1:https://}', docs: 'domain-servers-and-evidence' },
      ],
      [
        'transport',
        {
          summary:
            'How the HTTP server is reached: `streamable-http` (the default), or `sse`, the legacy HTTP+SSE transport (also chosen for a `url` ending in `/sse`).',
          snippet: 'transport: ${1|streamable-http,sse|}',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'headers',
        {
          summary: 'Headers the HTTP server gets; credentials as `${VAR}`, e.g. `Authorization: "Bearer ${TOKEN}"` (SOP062).',
          snippet: 'headers: { Authorization: "Bearer \\${${1:TOKEN}}" }',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'timeout_ms',
        {
          summary: 'How long one call may take before the model is told it timed out (default 30000).',
          snippet: 'timeout_ms: ${1:30000}',
          docs: 'domain-servers-and-evidence',
        },
      ],
      [
        'description',
        {
          summary: 'What the server is for, in one line (kept in the compiled SOP; the gateway does not use it).',
          snippet: 'description: ${1}',
          docs: 'domain-servers-and-evidence',
        },
      ],
    ]),
  ],
  [
    'selector',
    new Map<string, KeyDoc>([
      [
        'nodes',
        { summary: 'Node ids or patterns (`*` stands for any run of characters: `DO_*`).', snippet: 'nodes: [${1}]', docs: 'policies' },
      ],
      ['tools', { summary: 'The nodes whose `tools` list one of these tools.', snippet: 'tools: [${1}]', docs: 'policies' }],
      ['terminals', { summary: '`true`: the terminal nodes (no outgoing edges).', snippet: 'terminals: true', docs: 'policies' }],
      ['except', { summary: 'Node ids or patterns taken out of the selection.', snippet: 'except: [${1}]', docs: 'policies' }],
    ]),
  ],
]);

/** Keys of a node's ```yaml block (and of an entry of the `node_prompts:` map, which adds `prompt`). */
export const NODE_KEYS: ReadonlyMap<string, KeyDoc> = new Map<string, KeyDoc>([
  [
    'tools',
    {
      summary: 'The domain tools the agent may use at this node; each must be in the frontmatter `tools`.',
      snippet: 'tools: [${1}]',
      docs: 'node-prompts',
    },
  ],
  [
    'examples',
    {
      summary: 'Few-shot turns delivered with the node: a list of `{user, agent}`.',
      snippet: 'examples:\n  - user: "${1}"\n    agent: "${2}"',
      docs: 'node-prompts',
    },
  ],
  [
    'max_visits',
    {
      summary: 'How many moves into this node a run may make; then the escalation node is the way on.',
      snippet: 'max_visits: ${1:3}',
      docs: 'visit-limits',
    },
  ],
  [
    'escalate_to',
    {
      summary: "Where a run goes once `max_visits` is used up (default: the frontmatter's `escalation_node`).",
      snippet: 'escalate_to: ${1}',
      docs: 'visit-limits',
    },
  ],
  [
    'evidence',
    {
      summary:
        'What must succeed here before a run goes on from this node, in gateway mode: `true` (any of its tools), a list of its tools, or `{tools, about: order_id, fresh: true, shows: [status == pending]}` (about that entity; only a call of this visit; what the answer must show).',
      snippet: 'evidence: ${1:true}',
      docs: 'domain-servers-and-evidence',
    },
  ],
  [
    'when',
    {
      summary:
        "Edges decided by data, in gateway mode: a successor → a condition over a tool's answer read earlier in the run (`TOOL.FIELD OP VALUE`, exact). An edge without one stays the agent's judgement.",
      snippet: 'when:\n  ${1:SUCCESSOR}: ${2:get_order_details.status == pending}',
      docs: 'domain-servers-and-evidence',
    },
  ],
  [
    'subflow',
    {
      summary:
        "The agent whose SOP this node calls: entering the node enters that SOP at its entry node, and each of its terminal nodes goes on along one of this node's edges. Draw the node as a subroutine, `CALL[[Label]]`.",
      snippet: 'subflow: ${1:agent}',
      docs: 'sub-flows',
    },
  ],
  [
    'exits',
    {
      summary:
        "Where a terminal node of the called SOP goes on to, when no edge of this node is labelled with the terminal's id or label: `{TERMINAL: NEXT_NODE}`, NEXT_NODE a successor of this node.",
      snippet: 'exits: { ${1:TERMINAL}: ${2:NEXT_NODE} }',
      docs: 'sub-flows',
    },
  ],
  [
    'fork',
    {
      summary:
        'This node is a fork: its edges are branches the agent works through in any order, and the node named is their join, entered once they are done.',
      snippet: 'fork: ${1:JOIN}',
      docs: 'fork-and-join',
    },
  ],
  [
    'join',
    {
      summary:
        'How the branches of the fork that names this node complete it: `all` (default: every branch done) or `any` (a branch passed). Its edges labelled `passed` or `failed` open by how it came out.',
      snippet: 'join: ${1|all,any|}',
      docs: 'fork-and-join',
    },
  ],
  [
    'prompt',
    { summary: "The node's prompt text (in the `node_prompts:` map form only).", snippet: 'prompt: |\n  ${1}', docs: 'node-prompts' },
  ],
]);
