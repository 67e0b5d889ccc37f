// @generated from sops/*.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

/**
 * The typed entry point for app code. Per agent: its XState machine (`<agent>Machine`, e.g.
 * `retailCustomerSupportMachine`), its event type (`<Agent>Event`) and its id types under its name
 * (`<Agent>NodeId`, `…DecisionNodeId`, `…TerminalNodeId`, `…ToolName`, `…Successors`), from `<agent>/machine.ts`
 * and `<agent>/ids.ts`.
 *
 * No data: an agent's compiled SOP (`SOP`, `EDGES`, `PROMPTS`, …) is in `<agent>/graph.ts`. Import it from there,
 * or load it with `loadAgent()` from `registry.ts`. tsc checks every module a program reaches, so if this file
 * re-exported the graph modules, every app importing one name from it would type-check all of them.
 *
 * Importing from this file still costs tsc every agent's machine. App code that uses a few agents out of many
 * should import `<agent>/machine.js` and `<agent>/ids.js` directly.
 */

export {
  type DecisionNodeId as ItHelpdeskDecisionNodeId,
  type NodeId as ItHelpdeskNodeId,
  type Successors as ItHelpdeskSuccessors,
  type TerminalNodeId as ItHelpdeskTerminalNodeId,
  type ToolName as ItHelpdeskToolName,
} from './it_helpdesk/ids.js';

export { type ItHelpdeskEvent, itHelpdeskMachine } from './it_helpdesk/machine.js';

export {
  type DecisionNodeId as RetailCustomerSupportDecisionNodeId,
  type NodeId as RetailCustomerSupportNodeId,
  type Successors as RetailCustomerSupportSuccessors,
  type TerminalNodeId as RetailCustomerSupportTerminalNodeId,
  type ToolName as RetailCustomerSupportToolName,
} from './retail_customer_support/ids.js';

export { type RetailCustomerSupportEvent, retailCustomerSupportMachine } from './retail_customer_support/machine.js';
