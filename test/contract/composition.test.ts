/**
 * The expansion of a SOP with its sub-flows (`contract/composition.ts`), on the golden case `compose`: qualified ids,
 * the call's entry and hubs open only inside it, terminals mapped to the calling node's edges (declared, by label,
 * or the lone unlabelled edge) and leaving the call when the run goes on from them, limits, evidence and policies
 * carried over (the caller's resolved again over the expansion), a version that changes with the callee's, nested
 * calls, and every way it cannot be done as an error value.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { composeSop, exitsOf, stackOf } from '../../contract/composition.js';
import { decideMove } from '../../contract/transitions.js';

const bundle = JSON.parse(
  readFileSync(new URL('../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;
const RETAIL = bundle.agents['retail_orders']!;
const AUTH = bundle.agents['authenticate_customer']!;
const lookupIn =
  (agents: Record<string, CompiledSop>) =>
  (name: string): CompiledSop | undefined =>
    Object.hasOwn(agents, name) ? agents[name] : undefined;
const lookup = lookupIn(bundle.agents as Record<string, CompiledSop>);

function expand(sop: CompiledSop, find = lookup): CompiledSop {
  const composed = composeSop(sop, find);
  if (!composed.ok) throw new Error(composed.error);
  return composed.sop;
}

describe('exitsOf', () => {
  it('maps each terminal by its label (trimmed, any case), and says what maps nowhere', () => {
    const mapping = exitsOf(RETAIL, 'AUTHENTICATE', AUTH);
    expect([...mapping.exits].map(([terminal, edge]) => [terminal, edge.to])).toEqual([
      ['LOCKED_OUT', 'END_UNAUTH'],
      ['AUTHENTICATED', 'ROUTE'],
    ]);
    expect(mapping.unmapped).toEqual([]);
    const relabelled: CompiledSop = {
      ...RETAIL,
      edges: { ...RETAIL.edges, AUTHENTICATE: [{ to: 'ROUTE', condition: 'AUTHENTICATED ', style: 'solid' }] },
      subflows: { AUTHENTICATE: { agent: 'authenticate_customer', exits: { NOPE: 'ROUTE' } } },
    };
    const partial = exitsOf(relabelled, 'AUTHENTICATE', AUTH);
    expect(partial.unmapped).toEqual(['LOCKED_OUT']);
    expect(partial.notTerminals).toEqual(['NOPE']);
  });

  it('takes a declared exit first, and the lone unlabelled edge for the rest', () => {
    const lone: CompiledSop = {
      ...RETAIL,
      edges: { ...RETAIL.edges, AUTHENTICATE: [{ to: 'ROUTE', condition: null, style: 'solid' }] },
      subflows: { AUTHENTICATE: { agent: 'authenticate_customer', exits: {} } },
    };
    expect([...exitsOf(lone, 'AUTHENTICATE', AUTH).exits.values()].map((edge) => edge.to)).toEqual(['ROUTE', 'ROUTE']);
    const declared: CompiledSop = {
      ...RETAIL,
      subflows: { AUTHENTICATE: { agent: 'authenticate_customer', exits: { AUTHENTICATED: 'END_UNAUTH' } } },
    };
    const mapping = exitsOf(declared, 'AUTHENTICATE', AUTH);
    expect(mapping.exits.get('AUTHENTICATED')?.to).toBe('END_UNAUTH');
    expect(mapping.unused.map((edge) => edge.to)).toEqual(['ROUTE']);
  });
});

describe('composeSop', () => {
  it('is the SOP itself when it calls nothing', () => {
    const composed = composeSop(AUTH, lookup);
    expect(composed.ok && composed.sop).toBe(AUTH);
  });

  it('inserts the called SOP, qualified, between the sub-flow node and its edges', () => {
    const sop = expand(RETAIL);
    expect(sop.nodeIds.slice(0, 10)).toEqual([
      'START',
      'AUTHENTICATE',
      'AUTHENTICATE.START',
      'AUTHENTICATE.IDENTIFY',
      'AUTHENTICATE.FOUND',
      'AUTHENTICATE.VERIFY',
      'AUTHENTICATE.LOCKED_OUT',
      'AUTHENTICATE.CODE_OK',
      'AUTHENTICATE.AUTHENTICATED',
      'ROUTE',
    ]);
    expect(sop.transitions.successors['AUTHENTICATE']).toEqual(['AUTHENTICATE.START']);
    expect(sop.transitions.successors['AUTHENTICATE.AUTHENTICATED']).toEqual(['ROUTE']);
    expect(sop.transitions.hubs).toEqual(['ROUTE', 'AUTHENTICATE.START']);
    expect(sop.transitions.limits).toEqual({ 'AUTHENTICATE.VERIFY': { max: 3, escalation: 'AUTHENTICATE.LOCKED_OUT' } });
    expect(sop.transitions.returns).toEqual({ 'AUTHENTICATE.LOCKED_OUT': 'AUTHENTICATE', 'AUTHENTICATE.AUTHENTICATED': 'AUTHENTICATE' });
    expect(sop.terminalNodes).toEqual(['END_UNAUTH', 'END_OTHER', 'END_DENIED', 'END_CANCELLED']);
    expect(sop.evidence).toEqual({
      'AUTHENTICATE.IDENTIFY': { tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'], about: null },
    });
    expect(sop.tools).toEqual([...RETAIL.tools, ...AUTH.tools]);
    expect(sop.calls).toMatchObject({ AUTHENTICATE: { agent: 'authenticate_customer', entry: 'START', sourceHash: AUTH.sourceHash } });
    expect(sop.subflows).toBeUndefined();
  });

  it('carries the edges decided by data of the called SOP and of the caller, qualified', () => {
    const condition = {
      tool: 'find_user_id_by_email',
      field: ['verified'],
      op: '==' as const,
      values: [true],
      text: 'find_user_id_by_email.verified == true',
    };
    const auth: CompiledSop = { ...AUTH, conditions: { CODE_OK: { AUTHENTICATED: condition } } };
    const caller: CompiledSop = { ...RETAIL, conditions: { IS_PENDING: { DO_CANCEL: { ...condition, text: 'own' } } } };
    const sop = expand(caller, lookupIn({ ...bundle.agents, authenticate_customer: auth } as Record<string, CompiledSop>));
    expect(JSON.parse(JSON.stringify(sop.conditions))).toEqual({
      'AUTHENTICATE.CODE_OK': { 'AUTHENTICATE.AUTHENTICATED': condition },
      IS_PENDING: { DO_CANCEL: { ...condition, text: 'own' } },
    });
  });

  it("resolves the caller's policies over the expansion, dotted patterns and tools reaching into the call", () => {
    const sop = expand(RETAIL);
    const first = sop.policies?.find((p) => p.id === 'authenticated_first');
    expect(first).toMatchObject({ guards: ['ROUTE', 'CHK_CANCEL', 'DO_CANCEL'], passes: ['AUTHENTICATE.AUTHENTICATED'] });
    expect(first?.scope).toBeUndefined();
  });

  it('ends the call when the run goes on from its terminal: the path rewinds to the sub-flow node', () => {
    const sop = expand(RETAIL);
    let path: readonly string[] = [];
    for (const node of [
      'START',
      'AUTHENTICATE',
      'AUTHENTICATE.START',
      'AUTHENTICATE.IDENTIFY',
      'AUTHENTICATE.FOUND',
      'AUTHENTICATE.LOCKED_OUT',
    ]) {
      const verdict = decideMove(sop.transitions, path, node);
      if (!verdict.ok) throw new Error(`${node}: ${verdict.reason}`);
      path = verdict.path;
    }
    expect(stackOf(sop, path.at(-1)!)).toEqual([
      { agent: 'retail_orders', node: 'AUTHENTICATE' },
      { agent: 'authenticate_customer', node: 'LOCKED_OUT' },
    ]);
    expect(decideMove(sop.transitions, path, 'END_UNAUTH')).toEqual({
      ok: true,
      path: ['START', 'AUTHENTICATE', 'END_UNAUTH'],
      visits: {},
      returned: 'AUTHENTICATE',
    });
  });

  it('is a new version when the called SOP changes, and the same version for the same SOPs', () => {
    const again = expand(RETAIL);
    expect(again.sourceHash).toBe(expand(RETAIL).sourceHash);
    const fixed = { ...AUTH, sourceHash: `sha256:${'1'.repeat(64)}` };
    const changed = expand(RETAIL, lookupIn({ ...(bundle.agents as Record<string, CompiledSop>), authenticate_customer: fixed }));
    expect(changed.sourceHash).not.toBe(again.sourceHash);
    expect(changed.sourceHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('expands calls within calls, qualified twice', () => {
    const outer: CompiledSop = {
      ...RETAIL,
      meta: { ...RETAIL.meta, agent: 'front_desk' },
      subflows: { AUTHENTICATE: { agent: 'retail_orders', exits: {} } },
      edges: { ...RETAIL.edges, AUTHENTICATE: [{ to: 'ROUTE', condition: null, style: 'solid' }] },
      transitions: { ...RETAIL.transitions, successors: { ...RETAIL.transitions.successors, AUTHENTICATE: ['ROUTE'] } },
      policies: [],
    };
    const sop = expand(outer);
    expect(sop.nodeIds).toContain('AUTHENTICATE.AUTHENTICATE.VERIFY');
    expect(sop.transitions.returns?.['AUTHENTICATE.AUTHENTICATE.AUTHENTICATED']).toBe('AUTHENTICATE.AUTHENTICATE');
    expect(stackOf(sop, 'AUTHENTICATE.AUTHENTICATE.VERIFY').map((frame) => frame.agent)).toEqual([
      'front_desk',
      'retail_orders',
      'authenticate_customer',
    ]);
  });

  it('says why it cannot expand: a missing agent, a call of itself, a terminal that maps nowhere', () => {
    expect(composeSop(RETAIL, () => undefined)).toEqual({
      ok: false,
      error: 'retail_orders: sub-flow node AUTHENTICATE calls authenticate_customer, which is not compiled',
    });
    const selfCalling: CompiledSop = { ...RETAIL, subflows: { AUTHENTICATE: { agent: 'retail_orders', exits: {} } } };
    expect(composeSop(selfCalling, lookup)).toMatchObject({ ok: false, error: expect.stringContaining('retail_orders → retail_orders') });
    const unlabelled: CompiledSop = {
      ...RETAIL,
      edges: { ...RETAIL.edges, AUTHENTICATE: [{ to: 'ROUTE', condition: 'later', style: 'solid' }] },
    };
    expect(composeSop(unlabelled, lookup)).toMatchObject({
      ok: false,
      error: expect.stringContaining('LOCKED_OUT, AUTHENTICATED map to no edge'),
    });
  });
});
