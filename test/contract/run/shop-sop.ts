/**
 * A small shop SOP as compiled data, for the step function's tests: authenticate (evidence about `user_id`), answer
 * questions, or cancel an order (a check step with evidence about `order_id`, a status decision by data, a confirmation
 * step). Written by hand in the bundle's shape so the tests do not depend on the compiler.
 *
 *   START → AUTH → ROUTE ─┬→ INFO → END_INFO
 *                         └→ CHK → IS_PENDING ─┬→ DO_CANCEL → END_CANCEL     (get_order_details.status == pending)
 *                                              └→ DENY                        (get_order_details.status != pending)
 */
import type { CompiledSop, DataCondition } from '../../../contract/compiled-sop.js';

const successors: Record<string, string[]> = {
  START: ['AUTH'],
  AUTH: ['ROUTE'],
  ROUTE: ['INFO', 'CHK'],
  INFO: ['END_INFO'],
  END_INFO: [],
  CHK: ['IS_PENDING'],
  IS_PENDING: ['DO_CANCEL', 'DENY'],
  DO_CANCEL: ['END_CANCEL', 'ROUTE'],
  END_CANCEL: [],
  DENY: [],
};

const toolsByNode: Record<string, string[]> = {
  START: [],
  AUTH: ['find_user_id_by_email'],
  ROUTE: [],
  INFO: ['get_order_details', 'get_user_details'],
  END_INFO: [],
  CHK: ['get_order_details'],
  IS_PENDING: [],
  DO_CANCEL: ['cancel_pending_order', 'modify_pending_order_address'],
  END_CANCEL: [],
  DENY: [],
};

const status = (op: '==' | '!=', text: string): DataCondition => ({
  tool: 'get_order_details',
  field: ['status'],
  op,
  values: ['pending'],
  text,
});

export function shopSop(options: { freshCheck?: boolean; confirmation?: boolean } = {}): CompiledSop {
  const ids = Object.keys(successors);
  return {
    meta: { agent: 'shop', version: '1', description: null, model: null, mcpServers: [] },
    sourceFile: 'sops/shop.md',
    sourceHash: 'sha256:shop',
    transitions: { entry: 'START', hubs: ['ROUTE'], successors },
    nodeIds: ids,
    nodes: Object.fromEntries(ids.map((id) => [id, { id, type: 'rectangle', description: id }])),
    edges: Object.fromEntries(ids.map((id) => [id, successors[id]!.map((to) => ({ to, condition: null, style: 'solid' as const }))])),
    prompts: {},
    decisionNodes: ['IS_PENDING'],
    terminalNodes: ids.filter((id) => successors[id]!.length === 0),
    tools: ['find_user_id_by_email', 'get_user_details', 'get_order_details', 'cancel_pending_order', 'modify_pending_order_address'],
    toolsByNode,
    systemPrompt: '',
    systemPromptSections: [],
    flowchart: '',
    policies: [
      {
        id: 'changes',
        description: null,
        severity: 'error',
        guards: [],
        tools: ['cancel_pending_order', 'modify_pending_order_address'],
        passes: ['DO_CANCEL'],
        confirmation: options.confirmation === true ? '^yes' : null,
      },
    ],
    evidence: {
      AUTH: { tools: ['find_user_id_by_email'], about: 'user_id' },
      CHK: { tools: ['get_order_details'], about: 'order_id', ...(options.freshCheck === true ? { fresh: true as const } : {}) },
    },
    conditions: {
      IS_PENDING: {
        DO_CANCEL: status('==', 'get_order_details.status == pending'),
        DENY: status('!=', 'get_order_details.status != pending'),
      },
    },
  };
}
