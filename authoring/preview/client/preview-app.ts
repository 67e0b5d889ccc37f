/**
 * The preview page, in the browser: the SOP's flowchart drawn by the runs page's Mermaid renderer, with the nodes
 * that have diagnostics marked and the diagnostics listed beside it; a node's details on click; and a walk that plays
 * `goto_node` from the entry node, offering the legal moves only and showing each answer with its token count. It
 * follows the server's event stream: when the SOP is saved, the view (and the walk, replayed on the new version)
 * is fetched again and redrawn, without a reload. Author text reaches the page as text only, never as HTML; the
 * flowchart is drawn by Mermaid with `securityLevel: strict`.
 */
import { annotateFlowchart } from '../../../runtime/diagram/annotate-flowchart.js';
import { element, required } from '../../../runtime/page/client/dom.js';
import { runDiagram } from '../../../runtime/page/client/run-diagram.js';
import type { NodeDetails } from '../../document/node-details-types.js';
import type { PreviewView, WalkAnswer } from '../preview-api.js';

const state = {
  file: document.body.dataset['file'] ?? '',
  view: null as PreviewView | null,
  /** The moves of the walk, from the entry node; empty when not walking. */
  moves: [] as string[],
  walk: null as WalkAnswer | null,
  selected: null as string | null,
  loads: 0,
};

const ui = {
  file: required<HTMLSelectElement>('file'),
  summary: required('summary'),
  connection: required('connection'),
  stale: required('stale'),
  diagram: required('diagram'),
  problems: required('problems'),
  noProblems: required('no-problems'),
  details: required('details'),
  walkStart: required<HTMLButtonElement>('walk-start'),
  walkBack: required<HTMLButtonElement>('walk-back'),
  walkProblem: required('walk-problem'),
  tokenizer: required('tokenizer'),
  walk: required('walk'),
  next: required('next'),
};

const diagram = runDiagram(ui.diagram);

async function load(): Promise<void> {
  const load = ++state.loads;
  const response = await fetch(`/api/sop?file=${encodeURIComponent(state.file)}`);
  const view = (await response.json()) as PreviewView | { error: string };
  if (load !== state.loads) return; // a newer load is on its way
  if ('error' in view) {
    ui.summary.textContent = view.error;
    return;
  }
  state.view = view;
  if (state.moves.length > 0) await replayWalk();
  render();
}

async function replayWalk(): Promise<void> {
  const view = state.view;
  if (view === null || view.walkProblem !== null) {
    state.walk = null;
    return;
  }
  const response = await fetch('/api/walk', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file: state.file, moves: state.moves }),
  });
  if (!response.ok) {
    state.walk = null;
    return;
  }
  const walk = (await response.json()) as WalkAnswer;
  // A move the edited SOP refuses ends the walk there: keep it (it shows why), drop what came after.
  const refused = walk.steps.findIndex((s) => !s.valid);
  if (refused >= 0 && refused < walk.steps.length - 1) {
    state.moves = state.moves.slice(0, refused + 1);
    return replayWalk();
  }
  state.walk = walk;
}

function render(): void {
  const view = state.view;
  if (view === null) return;
  renderFiles(view);
  const errors = view.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = view.diagnostics.filter((d) => d.severity === 'warning').length;
  ui.summary.textContent = `${view.agent ?? '(no agent)'} · ${view.nodes.length} nodes · ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  renderDiagram(view);
  renderProblems(view);
  renderDetails(view);
  renderWalk(view);
  ui.diagram.dataset['hash'] = view.hash;
}

function renderFiles(view: PreviewView): void {
  const options = view.files.map((f) => element('option', { text: f }));
  ui.file.replaceChildren(...options);
  ui.file.value = state.file;
}

function renderDiagram(view: PreviewView): void {
  if (view.diagram === null) {
    ui.stale.hidden = false;
    ui.stale.textContent = 'The flowchart does not parse: the last version that did is shown. See the problems.';
    return;
  }
  ui.stale.hidden = true;
  const path = state.walk?.steps.at(-1)?.path ?? [];
  const current = path.at(-1) ?? null;
  const traversed = path.slice(1).map((to, i) => [path[i]!, to] as const);
  const source = annotateFlowchart(
    view.diagram,
    view.nodes.map((n) => n.id),
    { visited: path, current, traversed },
  );
  diagram.show(source, { currentNode: current, step: state.walk?.steps.length ?? 0 });
}

function renderProblems(view: PreviewView): void {
  ui.noProblems.hidden = view.diagnostics.length > 0;
  ui.problems.replaceChildren(
    ...view.diagnostics.map((d) => {
      const item = element('li', { className: `problem-${d.severity}`, data: { code: d.code, node: d.node ?? '' } }, [
        element('span', { className: 'where', text: `${d.line}:${d.column}` }),
        element('span', { className: 'code', text: `${d.severity} ${d.code}` }),
        element('span', { className: 'message', text: d.message }),
        ...(d.remediation ? [element('span', { className: 'help', text: d.remediation })] : []),
      ]);
      if (d.node !== null) {
        const node = d.node;
        item.title = `about ${node}: click to show it`;
        item.addEventListener('click', () => select(node));
      }
      return item;
    }),
  );
}

function select(node: string | null): void {
  state.selected = node;
  if (state.view !== null) renderDetails(state.view);
}

function renderDetails(view: PreviewView): void {
  const node = view.nodes.find((n) => n.id === state.selected);
  ui.details.hidden = node === undefined;
  if (node === undefined) return;
  ui.details.dataset['node'] = node.id;
  ui.details.replaceChildren(...detailsOf(node));
}

function detailsOf(d: NodeDetails): Node[] {
  const roles = [d.entry && 'entry node', d.hub && 'hub', d.decision && 'decision', d.terminal && 'terminal'].filter(
    (r): r is string => typeof r === 'string',
  );
  const edges = (list: NodeDetails['outgoing'], arrow: string) =>
    element(
      'ul',
      {},
      list.map((e) =>
        element('li', {
          text:
            `${arrow} ${e.node}${e.condition !== null ? ` if “${e.condition}”` : ''}${e.style !== 'solid' ? ` (${e.style})` : ''}` +
            `${e.when === undefined ? '' : ` · when ${e.when}`}`,
        }),
      ),
    );
  const out: Node[] = [
    element('h2', { text: d.id }),
    element('p', { className: 'quiet', text: `${d.type} · “${d.label}”${roles.length > 0 ? ` · ${roles.join(', ')}` : ''}` }),
    element('h3', { text: 'Prompt' }),
    element('pre', { className: 'prompt', text: d.prompt ?? '(no prompt: the node is delivered with its label alone)' }),
  ];
  if (d.tools.length > 0) out.push(element('h3', { text: 'Tools' }), element('p', { text: d.tools.join(', ') }));
  out.push(
    element('h3', { text: 'Goes to' }),
    d.outgoing.length > 0 ? edges(d.outgoing, '→') : element('p', { text: 'nothing (terminal)' }),
  );
  if (d.incoming.length > 0) out.push(element('h3', { text: 'Comes from' }), edges(d.incoming, '←'));
  if (d.visitLimit !== null)
    out.push(element('h3', { text: 'Visit limit' }), element('p', { text: `${d.visitLimit.max}, then ${d.visitLimit.escalation}` }));
  if (d.guardedBy.length > 0) {
    out.push(
      element('h3', { text: 'Guarded by' }),
      element(
        'ul',
        {},
        d.guardedBy.map((p) =>
          element('li', {
            text: `${p.id}: every path here passes ${p.passes.join(', ') || 'nothing'} first${p.description ? ` (${p.description})` : ''}`,
          }),
        ),
      ),
    );
  }
  if (d.satisfies.length > 0) out.push(element('h3', { text: 'Required by' }), element('p', { text: d.satisfies.join(', ') }));
  return out;
}

function renderWalk(view: PreviewView): void {
  ui.walkProblem.hidden = view.walkProblem === null;
  ui.walkProblem.textContent = view.walkProblem ?? '';
  ui.walkStart.disabled = view.walkProblem !== null;
  ui.walkBack.disabled = state.moves.length === 0;
  const walk = view.walkProblem === null ? state.walk : null;
  ui.tokenizer.hidden = walk?.tokenizer == null;
  ui.tokenizer.textContent = walk?.tokenizer ? `Token counts are off: ${walk.tokenizer}` : '';
  ui.walk.replaceChildren(
    ...(walk?.steps ?? []).map((step) => {
      const tokens = step.tokens === null ? '' : ` · ${step.tokens} tokens`;
      const summary = element('summary', {
        text: `${step.move}${step.valid ? '' : ' (refused)'}${step.terminal ? ' · terminal' : ''}${tokens}`,
      });
      return element(
        'li',
        { className: step.valid ? 'move' : 'move refused', data: { node: step.move, tokens: String(step.tokens ?? '') } },
        [element('details', {}, [summary, element('pre', { className: 'answer', text: pretty(step.answer) })])],
      );
    }),
  );
  const current = walk?.steps.at(-1);
  ui.walk.dataset['current'] = current?.valid ? current.move : '';
  ui.walk.dataset['terminal'] = String(current?.terminal ?? false);
  const here = view.nodes.find((n) => n.id === (current?.valid ? current.move : undefined));
  ui.next.replaceChildren(
    ...(walk === null || state.moves.length === 0
      ? []
      : walk.next.map((id) => {
          const why = moveReason(view, here, id);
          const button = element('button', { data: { node: id, condition: why }, title: `goto_node("${id}")` }, [
            element('span', { className: 'move-id', text: id }),
            ...(why === '' ? [] : [element('span', { className: 'move-why', text: why })]),
          ]);
          button.type = 'button';
          button.addEventListener('click', () => void move(id));
          return button;
        })),
  );
}

/**
 * Why a move is offered, for its button: the conditions of the edges from here to it (and what data decides them),
 * "no condition" for an unlabelled edge; a move that is no edge is a hub or the entry node (a restart).
 */
function moveReason(view: PreviewView, here: NodeDetails | undefined, to: string): string {
  const edges = (here?.outgoing ?? []).filter((e) => e.node === to);
  if (edges.length > 0) {
    return edges
      .map((e) => `${e.condition === null ? 'no condition' : `if “${e.condition}”`}${e.when === undefined ? '' : ` (when ${e.when})`}`)
      .join(' or ');
  }
  const node = view.nodes.find((n) => n.id === to);
  return node?.entry ? 'restart at the entry node' : node?.hub ? 'back to the hub' : '';
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

async function move(id: string): Promise<void> {
  state.moves = [...state.moves, id];
  await replayWalk();
  render();
}

ui.walkStart.addEventListener('click', () => {
  const entry = state.view?.entry;
  if (entry == null) return;
  state.moves = [];
  void move(entry);
});
ui.walkBack.addEventListener('click', () => {
  state.moves = state.moves.slice(0, -1);
  if (state.moves.length === 0) state.walk = null;
  void (state.moves.length === 0 ? Promise.resolve() : replayWalk()).then(render);
});
ui.file.addEventListener('change', () => {
  state.file = ui.file.value;
  state.moves = [];
  state.walk = null;
  state.selected = null;
  void load();
});
// A click on a drawn node shows its details (Mermaid names its groups `…-flowchart-<id>-<n>`).
ui.diagram.addEventListener('click', (event) => {
  const group = (event.target as Element | null)?.closest('g.node');
  const id = group === null || group === undefined ? null : /-flowchart-(.+)-\d+$/.exec(group.id)?.[1];
  if (id !== undefined && id !== null) select(id);
});

function follow(): void {
  const events = new EventSource('/events');
  events.addEventListener('open', () => {
    ui.connection.dataset['state'] = 'live';
    ui.connection.textContent = 'live';
  });
  events.addEventListener('change', (event) => {
    const { file } = JSON.parse((event as MessageEvent<string>).data) as { file: string };
    if (file === '' || file === state.file || !(state.view?.files ?? []).includes(file)) void load();
  });
  events.addEventListener('error', () => {
    ui.connection.dataset['state'] = 'reconnecting';
    ui.connection.textContent = 'reconnecting…';
  });
}

follow();
void load();
