/**
 * The live page, in the browser: the principal's runs (agent, step, status, last activity) and, for the run
 * chosen, its flowchart drawn by Mermaid with the run marked on it (visited nodes, the current node, the edges
 * moved along, refused moves as red dashed edges), its todos and its audit log, with a scrubber over the steps.
 * Everything updates from the server's event stream without a reload: a `run` event refreshes that run's row,
 * and when it is the run shown, its new audit entries are fetched and the diagram follows (unless the scrubber
 * was moved back; `live` returns to following).
 *
 * On a SOP with forks, the forks on the run's path are shown for the step on screen: a panel lists each fork's
 * branches (done and passed, done and failed, open), its join's strategy and outcome, and the branches' first nodes
 * and decided joins are marked on the flowchart. The latest step's forks are the server's (the run's state); a past
 * step's are the audit log replayed through the one move rule (`fork-replay.ts`).
 *
 * The URL fragment carries the state worth a bookmark: `#run=<id>`. A page token given as `#token=…` (or typed
 * into the form a 401 brings up) is kept in sessionStorage and removed from the address bar; the fragment never
 * reaches the server or its logs.
 */
import { annotateFlowchart } from '../../diagram/annotate-flowchart.js';
import type { AuditEntry } from '../../store/run-store.js';
import type { ForkView, RunDetail, RunRow, RunSop } from '../run-shapes.js';
import { forkMarks, forkViews } from '../fork-view.js';
import { replayForks } from '../fork-replay.js';
import { frameView } from '../frame-view.js';
import { stepView } from '../run-timeline.js';
import { ago, clock, element, required } from './dom.js';
import { pageApi, Unauthorized } from './page-api.js';
import { runDiagram } from './run-diagram.js';

interface RunPage {
  run: RunDetail;
  sop: RunSop | null;
  audit: AuditEntry[];
}

const TOKEN_KEY = 'sop-runs-page-token';

const state = {
  rows: new Map<string, RunRow>(),
  selected: null as string | null,
  shown: null as RunPage | null,
  /** The step on screen; null follows the latest. */
  step: null as number | null,
};

const ui = {
  connection: required('connection'),
  tokenForm: required<HTMLFormElement>('token-form'),
  token: required<HTMLInputElement>('token'),
  tokenProblem: required('token-problem'),
  runs: required<HTMLTableElement>('runs'),
  noRuns: required('no-runs'),
  run: required('run'),
  title: required('run-title'),
  facts: required('run-facts'),
  scrubber: required<HTMLInputElement>('step'),
  back: required<HTMLButtonElement>('step-back'),
  forward: required<HTMLButtonElement>('step-next'),
  live: required<HTMLButtonElement>('step-live'),
  stepLabel: required('step-label'),
  todos: required('todos'),
  noTodos: required('no-todos'),
  audit: required<HTMLTableElement>('audit'),
  forksPanel: required('forks-panel'),
  forks: required('forks'),
  forksNote: required('forks-note'),
};

const diagram = runDiagram(required('diagram'));
const api = pageApi(() => sessionStorage.getItem(TOKEN_KEY));
let stopFollowing = (): void => {};

function readFragment(): void {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token');
  if (token !== null) {
    sessionStorage.setItem(TOKEN_KEY, token);
    fragment.delete('token');
    history.replaceState(null, '', `${location.pathname}${fragment.size > 0 ? `#${fragment}` : ''}`);
  }
  state.selected = fragment.get('run');
}

function follow(): void {
  stopFollowing();
  stopFollowing = api.follow({
    state(connection) {
      ui.connection.dataset['state'] = connection;
      ui.connection.textContent = connection === 'live' ? 'live' : `${connection}…`;
    },
    unauthorized: askForToken,
    event(name, data) {
      // `ready` comes first on every connection, so anything missed while disconnected is read again.
      if (name === 'ready') void refresh();
      if (name === 'run') onRunChanged(JSON.parse(data) as RunRow);
    },
  });
}

async function refresh(): Promise<void> {
  await guarded(async () => {
    const { runs } = await api.get<{ runs: RunRow[] }>('/runs');
    state.rows = new Map(runs.map((row) => [row.run_id, row]));
    renderRows();
    if (state.selected !== null) await loadRun(state.selected);
  });
}

function onRunChanged(row: RunRow): void {
  state.rows.set(row.run_id, row);
  renderRows();
  if (row.run_id === state.selected) void guarded(loadNewEntries);
}

async function loadRun(runId: string): Promise<void> {
  const page = await api.get<RunPage & { more: boolean }>(`/runs/${encodeURIComponent(runId)}`);
  let more = page.more;
  while (more) {
    const next = await api.get<{ audit: AuditEntry[]; more: boolean }>(
      `/runs/${encodeURIComponent(runId)}/audit?after=${page.audit.at(-1)?.seq ?? 0}`,
    );
    page.audit.push(...next.audit);
    more = next.more;
  }
  if (state.selected !== runId) return;
  state.shown = { run: page.run, sop: page.sop, audit: page.audit };
  renderRun();
}

async function loadNewEntries(): Promise<void> {
  const shown = state.shown;
  if (shown === null || shown.run.run_id !== state.selected) return;
  const runId = shown.run.run_id;
  let more = true;
  while (more) {
    const after = shown.audit.at(-1)?.seq ?? 0;
    const next = await api.get<{ run: RunDetail; audit: AuditEntry[]; more: boolean }>(
      `/runs/${encodeURIComponent(runId)}/audit?after=${after}`,
    );
    if (state.shown !== shown) return;
    // Events come faster than answers: another fetch may have answered first, with the same entries or newer.
    if (next.run.step >= shown.run.step) shown.run = next.run;
    const known = shown.audit.at(-1)?.seq ?? 0;
    shown.audit.push(...next.audit.filter((entry) => entry.seq > known));
    more = next.more;
  }
  renderRun();
}

function select(runId: string): void {
  if (state.selected === runId) return;
  state.selected = runId;
  state.step = null;
  history.replaceState(null, '', `#run=${encodeURIComponent(runId)}`);
  renderRows();
  void guarded(() => loadRun(runId));
}

function renderRows(): void {
  const body = ui.runs.tBodies[0]!;
  const now = Date.now();
  const rows = [...state.rows.values()].sort((a, b) => b.updated_at - a.updated_at);
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = element('tr', { data: { runId: row.run_id, status: row.status }, title: row.run_id }, [
        element('td', { text: row.agent }),
        element('td', { text: String(row.step) }),
        element('td', {
          text: row.current_node === null ? row.status : `${row.status} · ${row.current_node}`,
          className: `status ${row.status}`,
        }),
        element('td', { text: ago(row.updated_at, now), title: new Date(row.updated_at).toLocaleString() }),
      ]);
      if (row.run_id === state.selected) tr.classList.add('selected');
      tr.addEventListener('click', () => select(row.run_id));
      return tr;
    }),
  );
  ui.noRuns.hidden = rows.length > 0;
}

function renderRun(): void {
  const shown = state.shown;
  ui.run.hidden = shown === null;
  if (shown === null) return;
  const { run, sop, audit } = shown;
  const last = audit.at(-1)?.seq ?? 0;
  const step = state.step === null ? last : Math.min(state.step, last);
  const view = stepView(audit, step, new Set(sop?.node_ids ?? []));

  const forks = forksAt(shown, step);
  const frame = sop === null ? null : frameView(sop, sop.transitions === undefined ? view : { ...view, ...forkMarks(forks ?? []) });
  const where = frame === null || frame.stack.length === 1 ? '' : ` · ${frame.stack.join(' › ')}`;
  ui.title.textContent = `${run.agent} · ${run.status}${view.current === null ? '' : ` · ${view.current}`}${where}`;
  ui.facts.textContent = `run ${run.run_id} · ${sop === null ? run.source_hash : `${sop.source_file} v${sop.version}`} · started ${clock(run.created_at)}`;
  ui.scrubber.max = String(Math.max(last, 1));
  ui.scrubber.value = String(step);
  ui.scrubber.disabled = last <= 1;
  ui.back.disabled = step <= 1;
  ui.forward.disabled = step >= last;
  ui.live.classList.toggle('on', state.step === null);
  ui.stepLabel.textContent =
    view.entry === undefined
      ? ''
      : `step ${step} of ${last}: ${view.entry.tool} ${view.entry.outcome}${view.entry.detail === undefined ? '' : ` (${decidedBy(view.entry.detail)})`}${view.entry.error ? ` (${view.entry.error})` : ''}`;

  if (sop === null || frame === null) {
    required('diagram').textContent = 'The SOP version this run is pinned to is not available on this server.';
  } else {
    // Inside a sub-flow, the called SOP's flowchart, with the run's marks of that frame.
    diagram.show(annotateFlowchart(frame.flowchart, frame.nodeIds, frame.marks), {
      agent: frame.agent,
      currentNode: frame.marks.current,
      step,
    });
  }
  renderForks(sop, forks);
  renderTodos(view.todos);
  renderAudit(audit, step);
}

/** The forks on the run's path after `step`: the server's at the run's own step, else the log replayed; null if not known. */
function forksAt(page: RunPage, step: number): readonly ForkView[] | null {
  const sop = page.sop;
  if (sop?.transitions === undefined) return page.run.forks;
  if (step === page.run.step) return page.run.forks;
  const replayed = replayForks(sop, page.audit, step);
  return replayed === null ? null : forkViews(sop.transitions.forks, replayed.forks, replayed.path);
}

function renderForks(sop: RunSop | null, forks: readonly ForkView[] | null): void {
  ui.forksPanel.hidden = sop?.transitions === undefined;
  ui.forksNote.textContent =
    forks === null
      ? "Not known at this step: the audit log and this version's rule disagree here (a migrated run, say)."
      : forks.length === 0
        ? "No fork on the run's path at this step."
        : '';
  ui.forksNote.hidden = ui.forksNote.textContent === '';
  ui.forks.replaceChildren(...(forks ?? []).map(forkItem));
}

function forkItem(view: ForkView): HTMLLIElement {
  const waiting = view.branches.filter((branch) => branch.state === 'open').length;
  const needs = view.strategy === 'all' ? 'every branch' : 'one branch that passed';
  const verdict = view.outcome === null ? `waiting (${waiting} open)` : view.outcome;
  return element('li', { className: 'fork', data: { fork: view.fork, outcome: view.outcome ?? 'waiting' } }, [
    element('span', { text: `${view.fork} → join ${view.join} (${view.strategy}: needs ${needs}): ` }),
    element('strong', { className: `join ${view.outcome ?? 'waiting'}`, text: `join ${verdict}` }),
    element(
      'ul',
      {},
      view.branches.map(({ branch, state }) =>
        element('li', {
          className: `branch ${state}`,
          data: { branch, state },
          text: `${branch}: ${state === 'open' ? 'open' : `done, ${state}`}`,
        }),
      ),
    ),
  ]);
}

function renderTodos(todos: ReturnType<typeof stepView>['todos']): void {
  ui.todos.replaceChildren(
    ...todos.map((todo) =>
      element('li', { className: todo.status, data: { status: todo.status } }, [
        element('span', { className: 'todo-status', text: todo.status.replace('_', ' ') }),
        element('span', { text: todo.content }),
        ...(todo.completion_node === undefined ? [] : [element('span', { className: 'quiet', text: ` → ${todo.completion_node}` })]),
      ]),
    ),
  );
  ui.noTodos.hidden = todos.length > 0;
}

function renderAudit(audit: readonly AuditEntry[], step: number): void {
  const body = ui.audit.tBodies[0]!;
  body.replaceChildren(
    ...audit.map((entry) => {
      const target = (entry.input as { node_id?: unknown } | null)?.node_id;
      const move = `${entry.from ?? '–'} → ${entry.outcome === 'refused' && typeof target === 'string' ? `${target} (refused)` : (entry.to ?? '–')}`;
      const tr = element(
        'tr',
        { className: entry.outcome, data: { seq: String(entry.seq) }, title: entry.error ?? JSON.stringify(entry.input) },
        [
          element('td', { text: String(entry.seq) }),
          element('td', { text: entry.detail?.kind === 'domain' ? `${entry.tool} @ ${entry.detail.server}` : entry.tool }),
          element('td', { text: entry.detail === undefined ? entry.outcome : `${entry.outcome} · ${decidedBy(entry.detail)}` }),
          element('td', { text: move }),
          element('td', { text: `${clock(entry.at)} · ${entry.durationMs} ms` }),
        ],
      );
      if (entry.seq === step) tr.classList.add('selected');
      tr.addEventListener('click', () => showStep(entry.seq));
      return tr;
    }),
  );
  body.querySelector('tr.selected')?.scrollIntoView({ block: 'nearest' });
}

function showStep(step: number): void {
  const last = state.shown?.audit.at(-1)?.seq ?? 0;
  state.step = step >= last ? null : Math.max(1, step);
  renderRun();
}

function askForToken(): void {
  stopFollowing();
  ui.connection.dataset['state'] = 'locked';
  ui.connection.textContent = 'needs a page token';
  ui.tokenProblem.textContent = sessionStorage.getItem(TOKEN_KEY) === null ? '' : 'That token was not accepted.';
  ui.tokenForm.hidden = false;
}

async function guarded(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof Unauthorized) askForToken();
    else ui.connection.title = error instanceof Error ? error.message : String(error);
  }
}

ui.tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, ui.token.value.trim());
  ui.token.value = '';
  ui.tokenForm.hidden = true;
  follow();
});
ui.scrubber.addEventListener('input', () => showStep(Number(ui.scrubber.value)));
ui.back.addEventListener('click', () => showStep(Number(ui.scrubber.value) - 1));
ui.forward.addEventListener('click', () => showStep(Number(ui.scrubber.value) + 1));
ui.live.addEventListener('click', () => showStep(Number.MAX_SAFE_INTEGER));
window.addEventListener('hashchange', () => {
  const runId = new URLSearchParams(location.hash.slice(1)).get('run');
  if (runId !== null) select(runId);
});
setInterval(renderRows, 5_000);

readFragment();
follow();

/** What decided a domain call (gateway mode): the rule (and its policy), how the user's yes went, the server's time. */
function decidedBy(detail: NonNullable<AuditEntry['detail']>): string {
  if (detail.kind === 'move') return detail.would === undefined ? (detail.rule ?? '-') : `would refuse: ${detail.would.rule}`;
  if (detail.kind === 'start') return 'gateway';
  const parts: string[] = [detail.policy === undefined ? detail.rule : `${detail.rule}: ${detail.policy}`];
  if (detail.confirmation !== undefined) parts.push(`confirmation ${detail.confirmation}`);
  if (detail.would !== undefined) parts.push(detail.would.decision === 'ask' ? 'would ask the user' : `would refuse: ${detail.would.rule}`);
  if (detail.phase === 'forwarding') parts.push('sent');
  if (detail.upstreamMs !== undefined) parts.push(`${Math.round(detail.upstreamMs * 10) / 10} ms upstream`);
  if (detail.reached === 'maybe') parts.push('may have reached it');
  return parts.join(', ');
}
