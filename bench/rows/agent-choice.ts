/**
 * Which agent the server rows drive: the project's retail SOP when the fixture has it (the seed's example,
 * realistic prompt sizes), else the first synthetic agent.
 */
import type { FixtureProject } from '../fixture-project.js';

export const SEED_AGENT = 'retail_customer_support';

export function benchAgent(fixture: FixtureProject): string {
  if (fixture.copied.includes(SEED_AGENT)) return SEED_AGENT;
  const first = fixture.synthetic[0];
  if (!first) throw new Error('the fixture has no agent');
  return first.agent;
}
