/**
 * The machines of SOPs with sub-flows and forks (the golden case `compose`: a retail SOP calling the shared
 * authentication SOP, an incident SOP with a fork/join), on the real XState runtime with their child actors, agree
 * with the server's rule on the expansion on every move from every configuration the server can reach
 * (`composite-machine-vs-server.ts`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { composeSop } from '../../../contract/composition.js';
import { compareCompositeMachine } from '../../support/composite-machine-vs-server.js';

const GENERATED = new URL('../../fixtures/golden/compose/generated/', import.meta.url);
const bundle = JSON.parse(readFileSync(new URL('sop-bundle.json', GENERATED), 'utf8')) as SopBundle;

async function machineOf(agent: string): Promise<AnyStateMachine> {
  const module = (await import(/* @vite-ignore */ new URL(`${agent}/machine.ts`, GENERATED).href)) as Record<string, unknown>;
  const machine = Object.values(module).find((v): v is AnyStateMachine => typeof v === 'object' && v !== null && 'root' in v);
  if (machine === undefined) throw new Error(`${agent}/machine.ts exports no machine`);
  return machine;
}

describe.each(['retail_orders', 'incident_triage', 'authenticate_customer'])('the machine of %s', (agent) => {
  it('allows exactly the moves the server allows on the expansion, and stands where the server stands', async () => {
    const composed = composeSop(bundle.agents[agent]!, (name) => bundle.agents[name]);
    if (!composed.ok) throw new Error(composed.error);
    const comparison = compareCompositeMachine(await machineOf(agent), composed.sop);
    expect(comparison.problems.slice(0, 10)).toEqual([]);
    expect(comparison.configurations).toBeGreaterThan(composed.sop.nodeIds.length);
  });
});

describe('the comparison', () => {
  it('finds a machine that leaves a call before its terminal, or takes a done branch again', async () => {
    const retail = composeSop(bundle.agents['retail_orders']!, (name) => bundle.agents[name]);
    const incident = composeSop(bundle.agents['incident_triage']!, (name) => bundle.agents[name]);
    if (!retail.ok || !incident.ok) throw new Error('the golden case does not expand');
    const early = (await machineOf('retail_orders')).provide({ guards: { returned: () => true } });
    expect(compareCompositeMachine(early, retail.sop).problems.length).toBeGreaterThan(0);
    const again = (await machineOf('incident_triage')).provide({ guards: { forkAllows: () => true } });
    expect(
      compareCompositeMachine(again, incident.sop).problems.some((p) => p.includes('the machine allows it, the server refuses it')),
    ).toBe(true);
  });
});
