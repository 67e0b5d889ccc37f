// @generated from sops/*.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

/** The agents compiled into this folder. */
export type AgentName = 'it_helpdesk' | 'retail_customer_support';

/** Each agent's graph module, as `loadAgent` resolves it. */
export interface AgentModules {
  readonly it_helpdesk: typeof import('./it_helpdesk/graph.js');
  readonly retail_customer_support: typeof import('./retail_customer_support/graph.js');
}

/** One dynamic import per agent, typed per agent (for `loadAgent`). */
const LOADERS: { readonly [A in AgentName]: () => Promise<AgentModules[A]> } = {
  it_helpdesk: () => import('./it_helpdesk/graph.js'),
  retail_customer_support: () => import('./retail_customer_support/graph.js'),
};

/**
 * Imports one agent's graph module, typed for that agent (`NODE_IDS`, `EDGES`, `SOP`, …). A name that is not an
 * agent (from untyped code: `constructor`, say) is refused, never taken for a member of `LOADERS`.
 */
export function loadAgent<A extends AgentName>(name: A): Promise<AgentModules[A]> {
  const known = Object.prototype.hasOwnProperty.call(LOADERS, name);
  return known ? LOADERS[name]() : Promise.reject(new Error('Unknown agent: ' + String(name)));
}
