/**
 * Whether a run may move to a new version (`runtime/tools/migrate-run.ts`), on versions compiled by the real
 * compiler from the golden case `compose` and edits of it: a run moves with its ids renamed as the new version
 * declares; it stays, saying why, when a node of its path is gone, a step of its path is no longer allowed, a todo's
 * completion node is no terminal, or a confirmation the new version requires before its current node was never
 * passed; a run inside a sub-flow moves to a new version of the called SOP.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { compileSide } from '../../../analysis/diff/compiled-side.js';
import { expandedAgent } from '../../../generator/paths/path-fixtures.js';
import type { RunState } from '../../../runtime/store/run-store.js';
import { decideMigration } from '../../../runtime/tools/migrate-run.js';

const SOPS = new URL('../../fixtures/golden/compose/sops/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, SOPS), 'utf8');

/** `retail_orders` expanded, compiled from the golden sources with `edit` applied to one of them. */
function version(edit: (file: string, text: string) => string = (_, text) => text): CompiledSop {
  const files = ['authenticate_customer.md', 'incident_triage.md', 'retail_orders.md'];
  const side = compileSide(
    'test',
    files.map((file) => ({ file: `sops/${file}`, raw: edit(file, read(file)) })),
  );
  expect(side.errors).toEqual([]);
  const agents = Object.fromEntries(side.agents);
  const expanded = expandedAgent({ format: 'sop-bundle/1', agents }, 'retail_orders');
  if (!expanded.ok) throw new Error(expanded.error);
  return expanded.sop;
}

const V1 = version();
const state = (path: string[], extra: Partial<RunState> = {}): RunState => ({ path, todos: [], visits: {}, ...extra });
const AT_CHECK = ['START', 'AUTHENTICATE', 'ROUTE', 'CHK_CANCEL', 'IS_PENDING'];

describe('decideMigration', () => {
  it('moves a run with the renames the new version declares, its visits and todos too', () => {
    const v2 = version((file, text) =>
      file === 'retail_orders.md'
        ? text.replaceAll('IS_PENDING', 'ORDER_PENDING').replace('\npolicies:\n', '\nrenames: { IS_PENDING: ORDER_PENDING }\npolicies:\n')
        : text,
    );
    const decision = decideMigration(
      state(AT_CHECK, {
        visits: { 'AUTHENTICATE.VERIFY': 2 },
        todos: [{ content: 'Cancel', status: 'in_progress', completion_node: 'END_CANCELLED' }],
      }),
      V1.sourceHash,
      v2,
    );
    expect(decision).toMatchObject({
      ok: true,
      renamed: [['IS_PENDING', 'ORDER_PENDING']],
      state: {
        path: ['START', 'AUTHENTICATE', 'ROUTE', 'CHK_CANCEL', 'ORDER_PENDING'],
        visits: { 'AUTHENTICATE.VERIFY': 2 },
        pinned: v2.sourceHash,
      },
    });
  });

  it('keeps a run whose path stands on a node the new version removed, naming it', () => {
    const v2 = version((file, text) => (file === 'retail_orders.md' ? text.replaceAll('IS_PENDING', 'ORDER_PENDING') : text));
    expect(decideMigration(state(AT_CHECK), V1.sourceHash, v2)).toEqual({
      ok: false,
      reason: 'IS_PENDING is on its path, and the new version has no such node (nor a rename of it: renames: {IS_PENDING: NEW_ID})',
    });
  });

  it('keeps a run the new version holds back: a confirmation step before its current node that it never passed', () => {
    // The new version asks for a confirmation at a new step between the check and the cancellation.
    const v2 = version((file, text) =>
      file === 'retail_orders.md'
        ? text
            .replace(
              'IS_PENDING -->|yes| DO_CANCEL["Confirm, then cancel"]',
              'IS_PENDING -->|yes| CONFIRM["Ask for a yes"]\n    CONFIRM --> DO_CANCEL["Cancel"]',
            )
            .replace('passes: DO_CANCEL\n    confirmation: true', 'passes: CONFIRM\n    confirmation: true')
        : text,
    );
    const atCancel = [...AT_CHECK, 'DO_CANCEL'];
    expect(V1.transitions.successors['IS_PENDING']).toContain('DO_CANCEL');
    const decision = decideMigration(state(atCancel), V1.sourceHash, v2);
    expect(decision.ok).toBe(false);
    expect(!decision.ok && decision.reason).toBe(
      'the new version requires a confirmation step (CONFIRM, policy confirm_before_changes) before DO_CANCEL, which its path never passed: it keeps its version',
    );
    // Before the step, the run moves: the new version's path to DO_CANCEL will pass CONFIRM.
    expect(decideMigration(state(AT_CHECK), V1.sourceHash, v2).ok).toBe(true);
  });

  it('names the policy when the path is a walk of the new version but misses the step it requires', () => {
    // A new policy: a case is looked at only after the customer was sent to a colleague (END_OTHER), which no path does.
    const stricter = version((file, text) =>
      file === 'retail_orders.md'
        ? text.replace(
            'passes: DO_CANCEL\n    confirmation: true',
            'passes: DO_CANCEL\n    confirmation: true\n  route_first:\n    every_path_to: IS_PENDING\n    passes: END_OTHER\n    severity: warning',
          )
        : text,
    );
    expect(decideMigration(state(AT_CHECK), V1.sourceHash, stricter)).toEqual({
      ok: false,
      reason:
        'the new version requires a step (END_OTHER, policy route_first) before IS_PENDING, which its path never passed: it keeps its version',
    });
    // A policy passed inside a call that ended holds for the run past it (authenticated_first: AUTHENTICATE.AUTHENTICATED).
    expect(decideMigration(state(AT_CHECK), V1.sourceHash, V1)).toMatchObject({ ok: true });
  });

  it('keeps a run whose todo completes at a node that is no terminal any more', () => {
    const v2 = version((file, text) =>
      file === 'retail_orders.md'
        ? text.replace(
            'DO_CANCEL --> END_CANCELLED([Cancelled])',
            'DO_CANCEL --> END_CANCELLED([Cancelled])\n    END_CANCELLED --> END_OTHER',
          )
        : text,
    );
    const decision = decideMigration(
      state(AT_CHECK, { todos: [{ content: 'Cancel #1', status: 'in_progress', completion_node: 'END_CANCELLED' }] }),
      V1.sourceHash,
      v2,
    );
    expect(decision).toEqual({
      ok: false,
      reason: 'its todo "Cancel #1" completes at END_CANCELLED, which is no terminal node of the new version',
    });
  });

  it('moves a run inside a sub-flow to a new version of the called SOP', () => {
    const v2 = version((file, text) => (file === 'authenticate_customer.md' ? text.replace('max_visits: 3', 'max_visits: 4') : text));
    expect(v2.sourceHash).not.toBe(V1.sourceHash);
    const inside = state(
      ['START', 'AUTHENTICATE', 'AUTHENTICATE.START', 'AUTHENTICATE.IDENTIFY', 'AUTHENTICATE.FOUND', 'AUTHENTICATE.VERIFY'],
      {
        visits: { 'AUTHENTICATE.VERIFY': 3 },
      },
    );
    const decision = decideMigration(inside, V1.sourceHash, v2);
    expect(decision).toMatchObject({ ok: true, state: { path: inside.path, visits: { 'AUTHENTICATE.VERIFY': 3 }, pinned: v2.sourceHash } });
    // Moving back to the version it started on drops the marker.
    if (!decision.ok) return;
    expect(decideMigration(decision.state, V1.sourceHash, V1)).toMatchObject({ ok: true, state: { path: inside.path } });
    expect(
      decideMigration(decision.state, V1.sourceHash, V1).ok &&
        'pinned' in (decideMigration(decision.state, V1.sourceHash, V1) as { state: object }).state,
    ).toBe(false);
  });
});
