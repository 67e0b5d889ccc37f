/**
 * Checks that every name an author wrote refers to something that exists: `entry_node` and `hubs` are nodes,
 * each prompt section names a node (once), each node tool is declared in frontmatter `tools`, and each
 * declared tool is used somewhere. Messages name the closest valid choice.
 */
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt } from '../diagnostics/diagnostic.js';
import { suggester } from '../diagnostics/closest-match.js';
import { quoted } from '../diagnostics/quoted.js';
import type { SopModel } from '../model/sop-model.js';

export function checkReferences(model: SopModel, sink: DiagnosticSink): void {
  const file = model.file;
  const nodeIds = model.nodes.map((n) => n.id);
  const isNode = new Set(nodeIds);
  const nodeIdsLike = suggester(nodeIds);

  if (!isNode.has(model.entryNode)) {
    sink.push(
      diagnosticAt(
        file,
        'SOP030',
        model.entryNodeSpan,
        `Entry node ${quoted(model.entryNode)} is not a node of the flowchart.`,
        `${nodeIdsLike.suggestion(model.entryNode, 'node id')} Set \`entry_node\` to the node where every conversation starts (default \`START\`).`,
      ),
    );
  }
  for (const hub of model.hubs) {
    if (!isNode.has(hub.id)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP031',
          hub.span,
          `Hub ${quoted(hub.id)} is not a node of the flowchart.`,
          nodeIdsLike.suggestion(hub.id, 'node id'),
        ),
      );
    }
  }

  likelyTypos(model, sink);

  const firstPrompt = new Map<string, SopModel['prompts'][number]>();
  for (const prompt of model.prompts) {
    if (!isNode.has(prompt.nodeId)) {
      sink.push(
        diagnosticAt(
          file,
          'SOP020',
          prompt.span,
          `Node prompt ${quoted(prompt.nodeId)} does not match any node of the flowchart.`,
          nodeIdsLike.suggestion(prompt.nodeId, 'node id'),
        ),
      );
      continue;
    }
    const first = firstPrompt.get(prompt.nodeId);
    if (first) {
      sink.push(
        diagnosticAt(
          file,
          'SOP021',
          prompt.span,
          `Node ${quoted(prompt.nodeId)} already has a prompt section (at line ${first.span.start.line}).`,
        ),
      );
    } else firstPrompt.set(prompt.nodeId, prompt);
  }

  const declared = model.tools.map((t) => t.name);
  const isDeclared = new Set(declared);
  const declaredLike = suggester(declared);
  const used = new Set<string>();
  for (const prompt of model.prompts) {
    for (const tool of prompt.tools) {
      used.add(tool.name);
      if (!isDeclared.has(tool.name)) {
        sink.push(
          diagnosticAt(
            file,
            'SOP040',
            tool.span,
            `Node ${quoted(prompt.nodeId)} names tool ${quoted(tool.name)}, which is not in frontmatter \`tools\`.`,
            `${declaredLike.suggestion(tool.name, 'tool')} Otherwise add ${quoted(tool.name)} to frontmatter \`tools\`.`,
          ),
        );
      }
    }
  }
  for (const tool of model.tools) {
    if (!used.has(tool.name)) {
      sink.push(diagnosticAt(file, 'SOP045', tool.span, `Tool ${quoted(tool.name)} is declared but no node uses it.`));
    }
  }
}

/**
 * Node ids become XState state keys, transition targets and `GOTO.<id>` events, and object keys of the generated
 * tables: `.` and `#` are XState's path and id delimiters, `\` its escape character (the machine fails to build),
 * an event `GOTO.*` is a wildcard that matches every move, and XState would take a state `__proto__` for its states
 * object's prototype. Mermaid accepts all of these ids. Every other id is a name like any other (`constructor`,
 * `toString`, `delete`): the compiler and the runtime keep names in Maps and records without a prototype.
 */
export function checkNodeIds(model: SopModel, sink: DiagnosticSink): void {
  for (const node of model.nodes) {
    const reason =
      node.id === '__proto__'
        ? 'cannot name a state of the generated XState machine: XState keeps states in plain objects, where `__proto__` sets the prototype instead of naming a state (the machine would lose the node)'
        : node.id === '*'
          ? 'would make the move event `GOTO.*`, which XState reads as a wildcard that matches every move'
          : /[.#\\]/.test(node.id)
            ? "contains `.`, `#` or `\\`: the generated XState machine uses node ids as state keys, where `.` separates a nested state's path (`matches('a.b')` means state `b` inside `a`), `#` starts a state id and `\\` escapes"
            : null;
    if (reason) {
      sink.push(diagnosticAt(model.file, 'SOP034', node.span, `Node id ${quoted(node.id)} ${reason}.`));
    }
  }
}

/**
 * Mermaid declares a node wherever an id appears, so `ROUTE --> CHK_CANCL` silently creates a new, empty,
 * terminal node. A node that is never declared with a shape or label and whose id is one typo away from a
 * declared node is almost always that mistake: say so at the reference.
 */
function likelyTypos(model: SopModel, sink: DiagnosticSink): void {
  for (const [node, match] of likelyTyposOf(model)) {
    sink.push(
      diagnosticAt(
        model.file,
        'SOP046',
        node.span,
        `Node ${quoted(node.id)} is never declared with a label; it looks like a misspelling of \`${match}\`.`,
        `Did you mean \`${match}\`? If ${quoted(node.id)} is meant as its own node, declare it with a label: \`${node.id}[...]\`.`,
      ),
    );
  }
}

/** The nodes never declared whose id is one typo away from a declared node's, with that node's id. */
export function likelyTyposOf(model: SopModel): Map<SopModel['nodes'][number], string> {
  const declared = suggester(model.nodes.filter((n) => n.declared).map((n) => n.id));
  const out = new Map<SopModel['nodes'][number], string>();
  for (const node of model.nodes) {
    if (node.declared) continue;
    const match = declared.closest(node.id);
    if (match) out.set(node, match);
  }
  return out;
}
