/** The names a generated machine module exports, derived from the agent's name (the index re-exports them). */
import type { AgentNames } from './outline.js';

export function machineName(outline: AgentNames): string {
  return `${outline.camelName}Machine`;
}

export function eventTypeName(outline: AgentNames): string {
  return `${outline.pascalName}Event`;
}

export function contextTypeName(outline: AgentNames): string {
  return `${outline.pascalName}Context`;
}

/** The type of the child actor a SOP with sub-flows runs at its sub-flow nodes. */
export function calleeTypeName(outline: AgentNames): string {
  return `${outline.pascalName}Callee`;
}
