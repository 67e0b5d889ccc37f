// @generated from sops/*.md (sha256:e414f0033c1b) by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

import type { AgentIndexEntry } from '../runtime/compiled-sop.js';

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

/** Every compiled agent, sorted by name; `load()` imports its graph module on first use. */
export const AGENTS: readonly AgentIndexEntry[] = [
  {
    agent: 'it_helpdesk',
    sourceFile: 'sops/it_helpdesk_password_reset.md',
    sourceHash: 'sha256:ee6262b21639f86cfcb8db82f93deed348bfe1686419e74fde212b11b9c4b528',
    load: () => import('./it_helpdesk/graph.js').then((m) => m.SOP),
  },
  {
    agent: 'retail_customer_support',
    sourceFile: 'sops/retail_customer_support.md',
    sourceHash: 'sha256:63f52084aa78f6d807a2740931778224b7c7499946298223e967d436a15ff945',
    load: () => import('./retail_customer_support/graph.js').then((m) => m.SOP),
  },
];

/** Imports one agent's graph module, typed for that agent (`NODE_IDS`, `EDGES`, `SOP`, …). */
export function loadAgent<A extends AgentName>(name: A): Promise<AgentModules[A]> {
  return LOADERS[name]();
}
