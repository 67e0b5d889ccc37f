// @generated from sops/retail_customer_support.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

/** Node ids of the `retail_customer_support` SOP, in flowchart order. */
export const NODE_IDS = [
  'START',
  'AUTH',
  'ROUTE',
  'INFO',
  'CHK_CANCEL',
  'CHK_MOD',
  'CHK_RETURN',
  'CHK_EXCH',
  'COLLECT_USER_ADDR',
  'ESCALATE_HUMAN',
  'END_INFO',
  'IS_PENDING_C',
  'DENY_CANCEL',
  'COLLECT_CANCEL',
  'DO_CANCEL',
  'END_CANCEL',
  'IS_PENDING_M',
  'DENY_MOD',
  'COLLECT_MOD_ADDR',
  'MOD_TYPE',
  'DO_MOD_ADDR',
  'END_MOD',
  'COLLECT_MOD_ITEMS',
  'COLLECT_MOD_PAY',
  'DO_MOD_ITEMS',
  'IS_GC_OK',
  'DENY_PAY',
  'DO_MOD_PAY',
  'IS_DELIVERED_R',
  'DENY_RETURN',
  'COLLECT_RETURN',
  'DO_RETURN',
  'END_RETURN',
  'IS_DELIVERED_E',
  'DENY_EXCH',
  'COLLECT_EXCH',
  'DO_EXCH',
  'END_EXCH',
  'DO_USER_ADDR',
  'END_UADDR',
] as const;

/** A node of the `retail_customer_support` SOP. */
export type NodeId = (typeof NODE_IDS)[number];

/** Decision (rhombus) nodes of the `retail_customer_support` SOP. */
export const DECISION_NODE_IDS = [
  'ROUTE',
  'IS_PENDING_C',
  'IS_PENDING_M',
  'MOD_TYPE',
  'IS_GC_OK',
  'IS_DELIVERED_R',
  'IS_DELIVERED_E',
] as const;

/** A decision node of the `retail_customer_support` SOP. */
export type DecisionNodeId = (typeof DECISION_NODE_IDS)[number];

/** Terminal nodes of the `retail_customer_support` SOP: no outgoing edges. */
export const TERMINAL_NODE_IDS = [
  'ESCALATE_HUMAN',
  'END_INFO',
  'DENY_CANCEL',
  'END_CANCEL',
  'DENY_MOD',
  'END_MOD',
  'DENY_PAY',
  'DENY_RETURN',
  'END_RETURN',
  'DENY_EXCH',
  'END_EXCH',
  'END_UADDR',
] as const;

/** A terminal node of the `retail_customer_support` SOP. */
export type TerminalNodeId = (typeof TERMINAL_NODE_IDS)[number];

/** Domain tools of the `retail_customer_support` SOP: frontmatter `tools`, then any a node names beyond them. */
export const TOOL_NAMES = [
  'find_user_id_by_email',
  'find_user_id_by_name_zip',
  'get_user_details',
  'get_order_details',
  'get_product_details',
  'list_all_product_types',
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
  'calculate',
  'transfer_to_human_agents',
] as const;

/** A domain tool of the `retail_customer_support` SOP. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** The successors of each node of the `retail_customer_support` SOP (`never` for terminal nodes). */
export interface Successors {
  readonly START: 'AUTH';
  readonly AUTH: 'ROUTE';
  readonly ROUTE: 'INFO' | 'CHK_CANCEL' | 'CHK_MOD' | 'CHK_RETURN' | 'CHK_EXCH' | 'COLLECT_USER_ADDR' | 'ESCALATE_HUMAN';
  readonly INFO: 'END_INFO';
  readonly CHK_CANCEL: 'IS_PENDING_C';
  readonly CHK_MOD: 'IS_PENDING_M';
  readonly CHK_RETURN: 'IS_DELIVERED_R';
  readonly CHK_EXCH: 'IS_DELIVERED_E';
  readonly COLLECT_USER_ADDR: 'DO_USER_ADDR';
  readonly ESCALATE_HUMAN: never;
  readonly END_INFO: never;
  readonly IS_PENDING_C: 'DENY_CANCEL' | 'COLLECT_CANCEL';
  readonly DENY_CANCEL: never;
  readonly COLLECT_CANCEL: 'DO_CANCEL';
  readonly DO_CANCEL: 'END_CANCEL' | 'ROUTE';
  readonly END_CANCEL: never;
  readonly IS_PENDING_M: 'DENY_MOD' | 'COLLECT_MOD_ADDR' | 'MOD_TYPE';
  readonly DENY_MOD: never;
  readonly COLLECT_MOD_ADDR: 'DO_MOD_ADDR';
  readonly MOD_TYPE: 'COLLECT_MOD_ITEMS' | 'COLLECT_MOD_PAY';
  readonly DO_MOD_ADDR: 'END_MOD';
  readonly END_MOD: never;
  readonly COLLECT_MOD_ITEMS: 'DO_MOD_ITEMS' | 'ROUTE';
  readonly COLLECT_MOD_PAY: 'IS_GC_OK';
  readonly DO_MOD_ITEMS: 'END_MOD';
  readonly IS_GC_OK: 'DENY_PAY' | 'DO_MOD_PAY';
  readonly DENY_PAY: never;
  readonly DO_MOD_PAY: 'END_MOD';
  readonly IS_DELIVERED_R: 'DENY_RETURN' | 'COLLECT_RETURN';
  readonly DENY_RETURN: never;
  readonly COLLECT_RETURN: 'DO_RETURN' | 'CHK_EXCH';
  readonly DO_RETURN: 'END_RETURN';
  readonly END_RETURN: never;
  readonly IS_DELIVERED_E: 'DENY_EXCH' | 'COLLECT_EXCH';
  readonly DENY_EXCH: never;
  readonly COLLECT_EXCH: 'DO_EXCH';
  readonly DO_EXCH: 'END_EXCH';
  readonly END_EXCH: never;
  readonly DO_USER_ADDR: 'END_UADDR';
  readonly END_UADDR: never;
}

/** The nodes an edge leads to from node `N`. */
export type SuccessorOf<N extends NodeId> = Successors[N];
