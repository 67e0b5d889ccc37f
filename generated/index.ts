// @generated from sops/*.md (sha256:e414f0033c1b) by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

export {
  type DecisionNodeId as ItHelpdeskDecisionNodeId,
  type NodeId as ItHelpdeskNodeId,
  type Successors as ItHelpdeskSuccessors,
  type TerminalNodeId as ItHelpdeskTerminalNodeId,
  type ToolName as ItHelpdeskToolName,
  SOP as itHelpdeskSop,
} from './it_helpdesk/graph.js';

export { type ItHelpdeskEvent, itHelpdeskMachine } from './it_helpdesk/machine.js';

export {
  type DecisionNodeId as RetailCustomerSupportDecisionNodeId,
  type NodeId as RetailCustomerSupportNodeId,
  type Successors as RetailCustomerSupportSuccessors,
  type TerminalNodeId as RetailCustomerSupportTerminalNodeId,
  type ToolName as RetailCustomerSupportToolName,
  SOP as retailCustomerSupportSop,
} from './retail_customer_support/graph.js';

export { type RetailCustomerSupportEvent, retailCustomerSupportMachine } from './retail_customer_support/machine.js';
