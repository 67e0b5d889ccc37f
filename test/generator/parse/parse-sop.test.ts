/** The parse and model stages on whole files: sections, the system prompt, both node-prompt forms. */
import { describe, expect, it } from 'vitest';
import { entryOf, type NameRecord } from '../../../contract/name-table.js';
import { compileSop } from '../../../generator/compile-sop.js';
import { BASE_SOP } from '../../support/sop-text.js';

const WITH_SECTIONS = `---
agent: shop
version: 2
tools: [lookup, refund]
---
# Shop agent

Intro text that is not in any level-2 section.

## Role
You help **shoppers**.

## Tone
Be brief.

## SOP Flowchart
Read the chart top-down.

\`\`\`mermaid
%% the main flow
flowchart TD
    START([Hi]) --> Q{Refund?}
    Q -->|yes| R[Refund]
    Q -->|no| L[Lookup]
    R --> END([Bye])
    L --> END
\`\`\`

## Node Prompts

### R
\`\`\`yaml
tools: [refund]
examples:
  - user: "Refund me"
    agent: "Sure."
\`\`\`
Refund the order.

#### Details
Only within 30 days.

### L
\`\`\`yaml
tools: [lookup]
\`\`\`

## Appendix
Not for the agent.
`;

describe('parseSop + buildModel', () => {
  it('builds the system prompt from every level-2 section before Node Prompts, as written', () => {
    const { model, diagnostics } = compileSop('sops/shop.md', WITH_SECTIONS);
    expect(diagnostics).toEqual([]);
    expect(model!.systemPromptSections.map((s) => s.heading)).toEqual(['Role', 'Tone', 'SOP Flowchart']);
    expect(model!.systemPrompt).toBe(
      '## Role\nYou help **shoppers**.\n\n## Tone\nBe brief.\n\n## SOP Flowchart\nRead the chart top-down.\n\n```mermaid\n%% the main flow\nflowchart TD\n    START([Hi]) --> Q{Refund?}\n    Q -->|yes| R[Refund]\n    Q -->|no| L[Lookup]\n    R --> END([Bye])\n    L --> END\n```',
    );
    expect(model!.flowchart).toContain('%% the main flow');
    expect(model!.version).toBe('2');
  });

  it('reads ### prompts: yaml metadata, prompt text kept as written (deeper headings included), trimmed', () => {
    const { model } = compileSop('sops/shop.md', WITH_SECTIONS);
    const r = model!.prompts.find((p) => p.nodeId === 'R')!;
    expect(r.prompt).toBe('Refund the order.\n\n#### Details\nOnly within 30 days.');
    expect(r.tools.map((t) => t.name)).toEqual(['refund']);
    expect(r.examples).toEqual([{ user: 'Refund me', agent: 'Sure.' }]);
    expect(r.tools[0]!.span.start).toEqual({ line: 33, column: 9 });
    const l = model!.prompts.find((p) => p.nodeId === 'L')!;
    expect(l.prompt).toBe('');
  });

  it('reads the node_prompts yaml map form into the same model', () => {
    const mapForm = BASE_SOP.replace(
      '### ASK\n```yaml\ntools: [lookup]\n```\nAsk the question.',
      '```yaml\nnode_prompts:\n  ASK:\n    tools: [lookup]\n    prompt: |\n      Ask the question.\n```',
    );
    const headings = compileSop('sops/demo.md', BASE_SOP);
    const map = compileSop('sops/demo.md', mapForm);
    expect(map.diagnostics).toEqual([]);
    expect(map.model!.promptForm).toBe('yaml-map');
    const strip = (p: { nodeId: string; prompt: string; tools: readonly { name: string }[]; examples: unknown }) => ({
      nodeId: p.nodeId,
      prompt: p.prompt,
      tools: p.tools.map((t) => t.name),
      examples: p.examples,
    });
    expect(map.model!.prompts.map(strip)).toEqual(headings.model!.prompts.map(strip));
    expect(map.model!.prompts[0]!.span.start).toEqual({ line: 21, column: 3 });
  });

  it('derives decision and terminal nodes, keeps edge order, labels and dotted style', () => {
    const { model, facts } = compileSop('sops/shop.md', WITH_SECTIONS.replace('L --> END', 'L -.->|retry| Q\n    L --> END'));
    expect(facts!.decisionNodes).toEqual(['Q']);
    expect(facts!.terminalNodes).toEqual(['END']);
    expect(model!.edges.map((e) => [e.from, e.to, e.condition, e.style])).toEqual([
      ['START', 'Q', null, 'solid'],
      ['Q', 'R', 'yes', 'solid'],
      ['Q', 'L', 'no', 'solid'],
      ['R', 'END', null, 'solid'],
      ['L', 'Q', 'retry', 'dotted'],
      ['L', 'END', null, 'solid'],
    ]);
  });

  it('handles CRLF files and a BOM with the same positions', () => {
    const crlf = `\uFEFF${BASE_SOP.replace(/\n/g, '\r\n')}`.replace('### ASK', '### ASKK');
    const d = compileSop('sops/demo.md', crlf).diagnostics.find((x) => x.code === 'SOP020');
    expect(d).toMatchObject({ line: 19, column: 1 });
  });

  it('finds the node-prompt section by a heading that starts with Node Prompts, any case', () => {
    for (const heading of ['## Node Prompts (Solo)', '## node prompts', '## NODE PROMPTS: retail']) {
      const { model, diagnostics } = compileSop('sops/demo.md', BASE_SOP.replace('## Node Prompts', heading));
      expect(diagnostics, heading).toEqual([]);
      expect(model!.prompts.map((p) => p.nodeId)).toEqual(['ASK']);
      expect(model!.systemPromptSections.map((s) => s.heading)).toEqual(['Role', 'SOP Flowchart']);
    }
  });

  it('compiles a SOP without a node-prompt section, with a warning at line 1', () => {
    const { model, diagnostics } = compileSop('sops/demo.md', BASE_SOP.split('\n').slice(0, 16).join('\n'));
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.column])).toEqual([
      ['SOP016', 'warning', 1, 1],
      ['SOP045', 'info', 4, 9],
    ]);
    expect(model!.prompts).toEqual([]);
  });

  it('keeps the version as written', () => {
    for (const [written, kept] of [
      ['1.10', '1.10'],
      ['1.0', '1.0'],
      ['2', '2'],
      ['"1.10"', '1.10'],
      ['1.0e3', '1.0e3'],
      ['v2-beta', 'v2-beta'],
    ]) {
      expect(compileSop('sops/demo.md', BASE_SOP.replace('version: "1.0"', `version: ${written}`)).model!.version, written).toBe(kept);
    }
  });

  it('keeps every key of the open maps (model, a server env and headers) as written, whatever its name', () => {
    const { model, diagnostics } = compileSop(
      'sops/demo.md',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmodel: { name: m, __proto__: 1, constructor: 2 }\n' +
          'mcp_servers: [{ name: s, command: node, env: { __proto__: a, constructor: b } }, { name: h, url: "http://x/mcp", headers: { __proto__: c } }]\n---',
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(Object.entries(model!.model!)).toEqual([
      ['name', 'm'],
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    expect(Object.entries(model!.mcpServers[0]!.env!)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
    expect(entryOf(model!.mcpServers[1]!.headers as NameRecord<string>, '__proto__')).toBe('c');
  });

  it('warns about a key a server entry does not have, `__proto__` included, at the key, and does not keep it', () => {
    const { diagnostics, model } = compileSop(
      'sops/demo.md',
      BASE_SOP.replace('tools: [lookup]\n---', 'tools: [lookup]\nmcp_servers: [{ name: s, command: node, __proto__: { x: 1 } }]\n---'),
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'SOP004',
        severity: 'warning',
        line: 5,
        column: 41,
        message: expect.stringContaining('`__proto__`'),
      }),
    ]);
    expect(model?.mcpServers).toEqual([{ name: 's', command: 'node' }]);
    expect(Object.keys(model!.mcpServers[0]!)).toEqual(['name', 'command']);
  });

  it('takes the servers of SOPs written for the Python prototype, `{name, url, description}`, as written', () => {
    const { diagnostics, model } = compileSop(
      'sops/demo.md',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmcp_servers:\n  - name: retail\n    url: http://localhost:8000/mcp\n    description: Retail order tools\n---',
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(model?.mcpServers).toEqual([{ name: 'retail', url: 'http://localhost:8000/mcp', description: 'Retail order tools' }]);
  });

  it('refuses an agent name too long to name a folder, at the name (a fuzzed SOP crashed the build with ENAMETOOLONG)', () => {
    const long = 'a'.repeat(7654);
    const { diagnostics, model } = compileSop('sops/demo.md', BASE_SOP.replace(/^agent: .*$/m, `agent: ${long}`));
    expect(model).toBeNull();
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.message])).toEqual([
      [
        'SOP003',
        'error',
        2,
        8,
        "Frontmatter key `agent`: must be at most 128 characters: it names the build's output folder for the agent.",
      ],
    ]);
    expect(diagnostics[0]!.remediation).toContain('at most 128 characters');
    expect(compileSop('sops/demo.md', BASE_SOP.replace(/^agent: .*$/m, `agent: ${'a'.repeat(128)}`)).diagnostics).toEqual([]);
  });

  it('takes `transport: sse` for a server on the legacy HTTP+SSE transport, and refuses it for a stdio server', () => {
    const sse = compileSop(
      'sops/demo.md',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmcp_servers:\n  - name: legacy\n    url: http://localhost:8000/events\n    transport: sse\n---',
      ),
    );
    expect(sse.diagnostics).toEqual([]);
    expect(sse.model?.mcpServers).toEqual([{ name: 'legacy', url: 'http://localhost:8000/events', transport: 'sse' }]);
    const stdio = compileSop(
      'sops/demo.md',
      BASE_SOP.replace('tools: [lookup]\n---', 'tools: [lookup]\nmcp_servers:\n  - name: s\n    command: node\n    transport: sse\n---'),
    );
    expect(stdio.diagnostics.map((d) => [d.code, d.message])).toEqual([['SOP060', '`transport` does not apply to the stdio server `s`.']]);
    const wrong = compileSop(
      'sops/demo.md',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmcp_servers:\n  - name: s\n    url: http://x/mcp\n    transport: websocket\n---',
      ),
    );
    expect(wrong.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['SOP003', expect.stringContaining('must be streamable-http or sse')],
    ]);
  });

  it('names the valid keys of a server with an unknown one, and the closest', () => {
    const { diagnostics } = compileSop(
      'sops/demo.md',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmcp_servers:\n  - name: s\n    command: node\n    descripton: x\n    notes: y\n---',
      ),
    );
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.column, d.message, d.remediation])).toEqual([
      [
        'SOP004',
        'warning',
        8,
        5,
        "Unknown key `descripton` in server `s` (`mcp_servers.0`): it is not used. A server's keys: name, url, headers, command, args, env, cwd, timeout_ms, description, transport.",
        'Did you mean `description`?',
      ],
      [
        'SOP004',
        'warning',
        9,
        5,
        "Unknown key `notes` in server `s` (`mcp_servers.0`): it is not used. A server's keys: name, url, headers, command, args, env, cwd, timeout_ms, description, transport.",
        'Remove the key, or move what it says into `description`.',
      ],
    ]);
  });

  it('quotes file positions, not block positions, inside flowchart messages', () => {
    const { diagnostics } = compileSop('sops/demo.md', BASE_SOP.replace('    ASK --> DONE([Done])', '    ASK --> DONE(["Done'));
    const problem = diagnostics.find((d) => d.code === 'SOP012')!;
    expect(problem).toMatchObject({ line: 14, column: 17 });
    expect(problem.message).toContain('opened at 14:17');
  });

  it('reads the body of a file whose frontmatter is never closed from its first heading', () => {
    const { diagnostics } = compileSop('sops/demo.md', BASE_SOP.replace('tools: [lookup]\n---\n', 'tools: [lookup]\n'));
    expect(diagnostics.map((d) => d.code)).toEqual(['SOP002']);
    expect(diagnostics[0]!.remediation).toBe('Add a line `---` after the last frontmatter key (before line 6, the first heading).');
  });
});
