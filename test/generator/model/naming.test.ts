import { describe, expect, it } from 'vitest';
import { camelCaseAgent, compareCodeUnits, pascalCaseAgent } from '../../../generator/model/naming.js';

describe('agent names', () => {
  it.each([
    ['retail_customer_support', 'retailCustomerSupport', 'RetailCustomerSupport'],
    ['x', 'x', 'X'],
    ['v2_agent', 'v2Agent', 'V2Agent'],
    ['agent_2', 'agent2', 'Agent2'],
    ['double__underscore_', 'doubleUnderscore', 'DoubleUnderscore'],
    ['default', 'default', 'Default'],
  ])('%s → %s / %s', (agent, camel, pascal) => {
    expect(camelCaseAgent(agent)).toBe(camel);
    expect(pascalCaseAgent(agent)).toBe(pascal);
  });

  it('sorts by code units, whatever the locale', () => {
    expect(['b', 'B', 'a_b', 'a', 'a0'].sort(compareCodeUnits)).toEqual(['B', 'a', 'a0', 'a_b', 'b']);
  });
});
