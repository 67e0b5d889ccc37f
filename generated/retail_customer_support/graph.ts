// @generated from sops/retail_customer_support.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

import type { AgentMeta, CompiledPolicy, CompiledSop, DataCondition, EdgeTable, EvidenceRequirement, NodePrompt, SopNode, TransitionTable } from 'sop-toolkit/contract';
import { DECISION_NODE_IDS, NODE_IDS, TERMINAL_NODE_IDS, TOOL_NAMES } from './ids.js';
import type { NodeId, Successors, ToolName } from './ids.js';

/**
 * The ids and id types of the `retail_customer_support` SOP, re-exported from `./ids.js`. App code that only types
 * with them should import `./ids.js` itself: type-checking that module does not load the tables below.
 */
export {
  DECISION_NODE_IDS,
  type DecisionNodeId,
  NODE_IDS,
  type NodeId,
  type SuccessorOf,
  type Successors,
  TERMINAL_NODE_IDS,
  TOOL_NAMES,
  type TerminalNodeId,
  type ToolName,
} from './ids.js';

/** Every node of the `retail_customer_support` SOP: Mermaid shape and label. */
export const NODES: { readonly [K in NodeId]: SopNode<K> } = {
  START: { id: 'START', type: 'stadium', description: 'User contacts Agent' },
  AUTH: { id: 'AUTH', type: 'rectangle', description: 'Authenticate via email or name + zip' },
  ROUTE: { id: 'ROUTE', type: 'rhombus', description: 'Intent?' },
  INFO: { id: 'INFO', type: 'rectangle', description: 'Answer with read-only lookups' },
  CHK_CANCEL: { id: 'CHK_CANCEL', type: 'rectangle', description: 'Check order status' },
  CHK_MOD: { id: 'CHK_MOD', type: 'rectangle', description: 'Check order status' },
  CHK_RETURN: { id: 'CHK_RETURN', type: 'rectangle', description: 'Check order status' },
  CHK_EXCH: { id: 'CHK_EXCH', type: 'rectangle', description: 'Check order status' },
  COLLECT_USER_ADDR: { id: 'COLLECT_USER_ADDR', type: 'rectangle', description: 'Collect: user_id, new address' },
  ESCALATE_HUMAN: { id: 'ESCALATE_HUMAN', type: 'stadium', description: 'Transfer to human agent' },
  END_INFO: { id: 'END_INFO', type: 'stadium', description: 'End / Restart' },
  IS_PENDING_C: { id: 'IS_PENDING_C', type: 'rhombus', description: 'status == pending?' },
  DENY_CANCEL: { id: 'DENY_CANCEL', type: 'stadium', description: 'Cannot cancel: order is not pending' },
  COLLECT_CANCEL: { id: 'COLLECT_CANCEL', type: 'rectangle', description: 'Collect: order_id, reason' },
  DO_CANCEL: { id: 'DO_CANCEL', type: 'rectangle', description: 'Confirm, then cancel the order' },
  END_CANCEL: { id: 'END_CANCEL', type: 'stadium', description: 'End / Restart' },
  IS_PENDING_M: { id: 'IS_PENDING_M', type: 'rhombus', description: 'status == pending?' },
  DENY_MOD: { id: 'DENY_MOD', type: 'stadium', description: 'Cannot modify: order is not pending' },
  COLLECT_MOD_ADDR: {
    id: 'COLLECT_MOD_ADDR',
    type: 'rectangle',
    description: 'Collect: order_id, new shipping address',
  },
  MOD_TYPE: { id: 'MOD_TYPE', type: 'rhombus', description: 'What to modify?' },
  DO_MOD_ADDR: { id: 'DO_MOD_ADDR', type: 'rectangle', description: 'Confirm, then update the order address' },
  END_MOD: { id: 'END_MOD', type: 'stadium', description: 'End / Restart' },
  COLLECT_MOD_ITEMS: {
    id: 'COLLECT_MOD_ITEMS',
    type: 'rectangle',
    description: 'Collect: order_id, all item changes, payment method',
  },
  COLLECT_MOD_PAY: { id: 'COLLECT_MOD_PAY', type: 'rectangle', description: 'Collect: order_id, new payment method' },
  DO_MOD_ITEMS: { id: 'DO_MOD_ITEMS', type: 'rectangle', description: 'Confirm, then modify the items' },
  IS_GC_OK: { id: 'IS_GC_OK', type: 'rhombus', description: 'gift card balance covers the total?' },
  DENY_PAY: { id: 'DENY_PAY', type: 'stadium', description: 'Cannot switch: gift card balance too low' },
  DO_MOD_PAY: { id: 'DO_MOD_PAY', type: 'rectangle', description: 'Confirm, then change the payment method' },
  IS_DELIVERED_R: { id: 'IS_DELIVERED_R', type: 'rhombus', description: 'status == delivered?' },
  DENY_RETURN: { id: 'DENY_RETURN', type: 'stadium', description: 'Cannot return: order is not delivered' },
  COLLECT_RETURN: { id: 'COLLECT_RETURN', type: 'rectangle', description: 'Collect: order_id, items, refund method' },
  DO_RETURN: { id: 'DO_RETURN', type: 'rectangle', description: 'Confirm, then request the return' },
  END_RETURN: { id: 'END_RETURN', type: 'stadium', description: 'End / Restart' },
  IS_DELIVERED_E: { id: 'IS_DELIVERED_E', type: 'rhombus', description: 'status == delivered?' },
  DENY_EXCH: { id: 'DENY_EXCH', type: 'stadium', description: 'Cannot exchange: order is not delivered' },
  COLLECT_EXCH: { id: 'COLLECT_EXCH', type: 'rectangle', description: 'Collect: order_id, all item exchanges' },
  DO_EXCH: { id: 'DO_EXCH', type: 'rectangle', description: 'Confirm, then request the exchange' },
  END_EXCH: { id: 'END_EXCH', type: 'stadium', description: 'End / Restart' },
  DO_USER_ADDR: { id: 'DO_USER_ADDR', type: 'rectangle', description: 'Confirm, then update the default address' },
  END_UADDR: { id: 'END_UADDR', type: 'stadium', description: 'End / Restart' },
};

/** Outgoing edges of every node of the `retail_customer_support` SOP, in source order. */
export const EDGES: EdgeTable<NodeId, Successors> = {
  START: [{ to: 'AUTH', condition: null, style: 'solid' }],
  AUTH: [{ to: 'ROUTE', condition: null, style: 'solid' }],
  ROUTE: [
    { to: 'INFO', condition: 'question about account, orders or products', style: 'solid' },
    { to: 'CHK_CANCEL', condition: 'cancel a pending order', style: 'solid' },
    { to: 'CHK_MOD', condition: 'modify a pending order', style: 'solid' },
    { to: 'CHK_RETURN', condition: 'return delivered items', style: 'solid' },
    { to: 'CHK_EXCH', condition: 'exchange delivered items', style: 'solid' },
    { to: 'COLLECT_USER_ADDR', condition: 'update default address', style: 'solid' },
    { to: 'ESCALATE_HUMAN', condition: 'out of scope / user asks for a human', style: 'solid' },
  ],
  INFO: [{ to: 'END_INFO', condition: null, style: 'solid' }],
  CHK_CANCEL: [{ to: 'IS_PENDING_C', condition: null, style: 'solid' }],
  CHK_MOD: [{ to: 'IS_PENDING_M', condition: null, style: 'solid' }],
  CHK_RETURN: [{ to: 'IS_DELIVERED_R', condition: null, style: 'solid' }],
  CHK_EXCH: [{ to: 'IS_DELIVERED_E', condition: null, style: 'solid' }],
  COLLECT_USER_ADDR: [{ to: 'DO_USER_ADDR', condition: null, style: 'solid' }],
  ESCALATE_HUMAN: [],
  END_INFO: [],
  IS_PENDING_C: [
    { to: 'DENY_CANCEL', condition: 'no', style: 'solid' },
    { to: 'COLLECT_CANCEL', condition: 'yes', style: 'solid' },
  ],
  DENY_CANCEL: [],
  COLLECT_CANCEL: [{ to: 'DO_CANCEL', condition: null, style: 'solid' }],
  DO_CANCEL: [
    { to: 'END_CANCEL', condition: null, style: 'solid' },
    { to: 'ROUTE', condition: 'user does not confirm', style: 'dotted' },
  ],
  END_CANCEL: [],
  IS_PENDING_M: [
    { to: 'DENY_MOD', condition: 'no', style: 'solid' },
    { to: 'COLLECT_MOD_ADDR', condition: 'yes: shipping address', style: 'solid' },
    { to: 'MOD_TYPE', condition: 'yes: items or payment method', style: 'solid' },
  ],
  DENY_MOD: [],
  COLLECT_MOD_ADDR: [{ to: 'DO_MOD_ADDR', condition: null, style: 'solid' }],
  MOD_TYPE: [
    { to: 'COLLECT_MOD_ITEMS', condition: 'items', style: 'solid' },
    { to: 'COLLECT_MOD_PAY', condition: 'payment method', style: 'solid' },
  ],
  DO_MOD_ADDR: [{ to: 'END_MOD', condition: null, style: 'solid' }],
  END_MOD: [],
  COLLECT_MOD_ITEMS: [
    { to: 'DO_MOD_ITEMS', condition: null, style: 'solid' },
    { to: 'ROUTE', condition: 'user changes mind', style: 'dotted' },
  ],
  COLLECT_MOD_PAY: [{ to: 'IS_GC_OK', condition: null, style: 'solid' }],
  DO_MOD_ITEMS: [{ to: 'END_MOD', condition: null, style: 'solid' }],
  IS_GC_OK: [
    { to: 'DENY_PAY', condition: 'no', style: 'solid' },
    { to: 'DO_MOD_PAY', condition: 'yes, or new method is not a gift card', style: 'solid' },
  ],
  DENY_PAY: [],
  DO_MOD_PAY: [{ to: 'END_MOD', condition: null, style: 'solid' }],
  IS_DELIVERED_R: [
    { to: 'DENY_RETURN', condition: 'no', style: 'solid' },
    { to: 'COLLECT_RETURN', condition: 'yes', style: 'solid' },
  ],
  DENY_RETURN: [],
  COLLECT_RETURN: [
    { to: 'DO_RETURN', condition: null, style: 'solid' },
    { to: 'CHK_EXCH', condition: 'user prefers an exchange', style: 'dotted' },
  ],
  DO_RETURN: [{ to: 'END_RETURN', condition: null, style: 'solid' }],
  END_RETURN: [],
  IS_DELIVERED_E: [
    { to: 'DENY_EXCH', condition: 'no', style: 'solid' },
    { to: 'COLLECT_EXCH', condition: 'yes', style: 'solid' },
  ],
  DENY_EXCH: [],
  COLLECT_EXCH: [{ to: 'DO_EXCH', condition: null, style: 'solid' }],
  DO_EXCH: [{ to: 'END_EXCH', condition: null, style: 'solid' }],
  END_EXCH: [],
  DO_USER_ADDR: [{ to: 'END_UADDR', condition: null, style: 'solid' }],
  END_UADDR: [],
};

/** Node prompts of the `retail_customer_support` SOP, for the nodes that have one. */
export const PROMPTS: { readonly [K in NodeId]?: NodePrompt<ToolName> } = {
  AUTH: {
    prompt: 'Authenticate the user via email OR name + zip code. Must verify even if user provides user_id directly.',
    tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    examples: [
      {
        user: 'Hi, I\'m user sophia_martin_4832 and I need help with an order.',
        agent: 'Happy to help! First I need to verify your identity: could you share the email on your account, or your first name, last name and zip code?',
      },
    ],
  },
  INFO: {
    prompt: 'Answer the user\'s question with read-only lookups; change nothing here.\n' +
      '\n' +
      '- Orders: `get_order_details`. If the user has no order id, list their orders with `get_user_details`.\n' +
      '- Products: `list_all_product_types` to find the product id, then `get_product_details` for variants, options,\n' +
      '  prices and availability.\n' +
      '- Totals or differences: `calculate`.\n' +
      '- Report only what the tools return. If they do not have the answer, say so.\n' +
      '\n' +
      'When the question is answered, go to END_INFO. If the user now wants an action, go back to ROUTE.',
    tools: ['get_user_details', 'get_order_details', 'get_product_details', 'list_all_product_types', 'calculate'],
    examples: [
      {
        user: 'Which laptops do you sell, and is the 16-inch one in stock?',
        agent: 'Let me check our catalog for you.',
      },
    ],
  },
  CHK_CANCEL: {
    prompt: 'Find the order to cancel and read its status.\n' +
      '\n' +
      '1. Ask for the order id (e.g. `#W2378156`). If the user does not know it, list their orders with\n' +
      '   `get_user_details` and let them choose.\n' +
      '2. Call `get_order_details` and check that the order belongs to the authenticated user.\n' +
      '3. Read the status exactly: only `pending` can be cancelled; `pending (item modified)`, `processed`,\n' +
      '   `delivered` and `cancelled` cannot.\n' +
      '\n' +
      'Then go to IS_PENDING_C.',
    tools: ['get_user_details', 'get_order_details'],
    examples: [],
  },
  CHK_MOD: {
    prompt: 'Find the order the user wants to change and read its status.\n' +
      '\n' +
      '- Get the order id; if the user does not know it, list their orders with `get_user_details` and find it with\n' +
      '  `get_order_details`. Check the order belongs to this user.\n' +
      '- Only status exactly `pending` can be modified. `pending (item modified)`, `processed`, `delivered` and\n' +
      '  `cancelled` cannot.\n' +
      '- Note what should change: shipping address, items, or payment method.\n' +
      '- If the user points to data in another of their orders ("use the address of my luggage order"), look that order\n' +
      '  up too, and save what you find in the relevant todo `note`.\n' +
      '\n' +
      'Then go to IS_PENDING_M.',
    tools: ['get_user_details', 'get_order_details'],
    examples: [],
  },
  CHK_RETURN: {
    prompt: 'Find the order the user wants to return items from and read its status.\n' +
      '\n' +
      '1. Ask for the order id; if the user does not know it, list their orders with `get_user_details`.\n' +
      '2. Call `get_order_details` and check the order belongs to this user.\n' +
      '3. Only `delivered` orders can be returned. A `pending` order can be cancelled instead (offer it via ROUTE).\n' +
      '\n' +
      'Then go to IS_DELIVERED_R.',
    tools: ['get_user_details', 'get_order_details'],
    examples: [],
  },
  CHK_EXCH: {
    prompt: 'Find the order with the item(s) to exchange and read its status.\n' +
      '\n' +
      '- Get the order id; if the user does not know it, list their orders with `get_user_details` and find it with\n' +
      '  `get_order_details`. Check the order belongs to this user.\n' +
      '- Only `delivered` orders can be exchanged. A `pending` order can have its items modified instead (via ROUTE).\n' +
      '\n' +
      'Then go to IS_DELIVERED_E.',
    tools: ['get_user_details', 'get_order_details'],
    examples: [],
  },
  COLLECT_USER_ADDR: {
    prompt: 'Collect:\n' +
      '1. **user_id**\n' +
      '2. **new default address**',
    tools: [],
    examples: [],
  },
  ESCALATE_HUMAN: {
    prompt: 'Transfer only when the request is outside this SOP, or the user explicitly asks for a human.\n' +
      '\n' +
      '1. Call `transfer_to_human_agents` with a short summary: user id (if authenticated), the request, and what has\n' +
      '   already been done.\n' +
      '2. Then tell the user: "You are being transferred to a human agent. Please hold on."\n' +
      '\n' +
      'Do not handle further requests after the transfer.',
    tools: ['transfer_to_human_agents'],
    examples: [
      {
        user: 'I want to talk to a real person.',
        agent: 'Of course. You are being transferred to a human agent. Please hold on.',
      },
    ],
  },
  IS_PENDING_C: {
    prompt: '',
    tools: [],
    examples: [],
  },
  COLLECT_CANCEL: {
    prompt: 'Collect and confirm:\n' +
      '1. **order_id**\n' +
      '2. **reason**: must be \'no longer needed\' OR \'ordered by mistake\'\n' +
      '\n' +
      '- If user gives a different reason, politely explain only these two are accepted\n' +
      '- Do not suggest which reason to pick\n' +
      '- If user is unsure, offer to help with return or exchange instead',
    tools: [],
    examples: [
      {
        user: 'I want to cancel order 123',
        agent: 'I can help with that. Could you tell me the reason — is it \'no longer needed\' or \'ordered by mistake\'?',
      },
    ],
  },
  DO_CANCEL: {
    prompt: '1. Summarize: order id, its items, the reason, and the refund (the order total, computed with `calculate`, to\n' +
      '   the original payment method; immediate for a gift card, 5–7 business days otherwise).\n' +
      '2. Ask for an explicit "yes". Anything else: do not cancel, and go back to ROUTE.\n' +
      '3. On "yes", call `cancel_pending_order(order_id, reason)` once, with reason exactly "no longer needed" or\n' +
      '   "ordered by mistake".\n' +
      '4. Report the result, then go to END_CANCEL.',
    tools: ['calculate', 'cancel_pending_order'],
    examples: [
      {
        user: 'Yes, please cancel it.',
        agent: 'Done: order #W6619432 is cancelled. The refund goes back to your PayPal account within 5–7 business days.',
      },
    ],
  },
  IS_PENDING_M: {
    prompt: '',
    tools: [],
    examples: [],
  },
  COLLECT_MOD_ADDR: {
    prompt: 'Collect:\n' +
      '1. **order_id** (already checked: pending)\n' +
      '2. **new shipping address**: address1, address2 (may be empty), city, state, country, zip\n' +
      '\n' +
      '- If the user refers to an address you already know (todo notes, another order), use it; do not ask again.\n' +
      '- "My default address" is in the user\'s profile (`get_user_details`); another order\'s address in its details\n' +
      '  (`get_order_details`).\n' +
      '- Read the complete address back before moving on to DO_MOD_ADDR.',
    tools: ['get_user_details', 'get_order_details'],
    examples: [
      {
        user: 'Just use the address from my luggage order.',
        agent: 'That order ships to 456 Elm Ave, Apt 2, Springfield, IL 62704, USA. Shall I use this address for your pending order?',
      },
    ],
  },
  DO_MOD_ADDR: {
    prompt: '1. State the order id and the complete new shipping address, and ask for an explicit "yes".\n' +
      '2. On "yes", call `modify_pending_order_address` once.\n' +
      '3. Report the result, then go to END_MOD.\n' +
      '\n' +
      'This changes only this order. If the user also wants it as their default address, that is a separate task\n' +
      '(ROUTE → COLLECT_USER_ADDR).',
    tools: ['modify_pending_order_address'],
    examples: [],
  },
  COLLECT_MOD_ITEMS: {
    prompt: 'Collect ALL item changes at once (items can be modified only once per order):\n' +
      '1. **order_id**\n' +
      '2. **item_id → new_item_id** for each item: same product, different options, new item available\n' +
      '   (check with `get_product_details`)\n' +
      '3. **payment method** for the price difference: one of the user\'s saved methods (`get_user_details`); a gift card\n' +
      '   must cover any extra charge\n' +
      '\n' +
      '- Compute the price difference with `calculate`.\n' +
      '- Ask the user to confirm the list is complete: afterwards the order can be neither modified nor cancelled.',
    tools: ['get_product_details', 'get_user_details', 'calculate'],
    examples: [
      {
        user: 'Can I change the red shirt in my order to blue?',
        agent: 'Yes. Since items can only be modified once per order, is there anything else in this order you\'d like to change at the same time?',
      },
    ],
  },
  COLLECT_MOD_PAY: {
    prompt: 'Collect:\n' +
      '1. **order_id**\n' +
      '2. **new payment method**: one of the user\'s saved methods (`get_user_details`), different from the current one\n' +
      '\n' +
      '- An order has a single payment method; splitting is not possible.\n' +
      '- If the new method is a gift card, compare its balance with the order total using `calculate`.\n' +
      '\n' +
      'Then go to IS_GC_OK.',
    tools: ['get_user_details', 'calculate'],
    examples: [
      {
        user: 'Please pay that order with my gift card instead.',
        agent: 'Let me check your gift card balance against the order total first.',
      },
    ],
  },
  DO_MOD_ITEMS: {
    prompt: '1. Summarize each swap (old → new options), the price difference, and whether it is charged to or refunded to the\n' +
      '   chosen payment method.\n' +
      '2. Ask for an explicit "yes".\n' +
      '3. On "yes", call `modify_pending_order_items` once with all item ids, new item ids and the payment method id.\n' +
      '4. Tell the user the order is now `pending (item modified)`, then go to END_MOD.',
    tools: ['modify_pending_order_items'],
    examples: [],
  },
  IS_GC_OK: {
    prompt: '',
    tools: [],
    examples: [],
  },
  DO_MOD_PAY: {
    prompt: '1. State the order id, the current and the new payment method, and that the original method will be refunded\n' +
      '   (immediately for a gift card, otherwise in 5–7 business days).\n' +
      '2. Ask for an explicit "yes".\n' +
      '3. On "yes", call `modify_pending_order_payment` once.\n' +
      '4. Report the result, then go to END_MOD.',
    tools: ['modify_pending_order_payment'],
    examples: [],
  },
  IS_DELIVERED_R: {
    prompt: '',
    tools: [],
    examples: [],
  },
  COLLECT_RETURN: {
    prompt: 'Collect ALL items to return at once:\n' +
      '1. **order_id**\n' +
      '2. **item_ids** to return\n' +
      '3. **refund method**: the original payment method, or an existing gift card of the user (`get_user_details`)\n' +
      '\n' +
      '- Compute the refund total with `calculate`.\n' +
      '- If the user would rather get a different variant of the same product, go to CHK_EXCH instead.',
    tools: ['get_user_details', 'calculate'],
    examples: [
      {
        user: 'I want to return the headphones from my last order.',
        agent: 'Sure. Is there anything else from that order to return? And should the refund go to the original payment method or to your gift card?',
      },
    ],
  },
  DO_RETURN: {
    prompt: '1. Summarize the order id, the items, the refund amount and the refund method.\n' +
      '2. Ask for an explicit "yes".\n' +
      '3. On "yes", call `return_delivered_order_items` once with all item ids.\n' +
      '4. Tell the user the order is now "return requested" and an email will explain how to send the items back, then\n' +
      '   go to END_RETURN.',
    tools: ['return_delivered_order_items'],
    examples: [],
  },
  IS_DELIVERED_E: {
    prompt: '',
    tools: [],
    examples: [],
  },
  COLLECT_EXCH: {
    prompt: 'Collect ALL items to exchange at once:\n' +
      '1. **order_id**\n' +
      '2. **list of item_id → new_item_id**: same product type, different options, new item available (find the variants,\n' +
      '   their prices and availability with `get_product_details`)\n' +
      '3. **payment method** for the price difference: one of the user\'s saved methods (`get_user_details`); a gift card\n' +
      '   must cover any extra charge\n' +
      '\n' +
      '- Remind user to confirm ALL items\n' +
      '- No new order needed\n' +
      '- Compute the price difference with `calculate`',
    tools: ['get_product_details', 'get_user_details', 'calculate'],
    examples: [
      {
        user: 'I want to swap my tablet for a different one',
        agent: 'Sure! Which variant would you like instead? Also, is there anything else from that order to exchange? All exchanges must be requested together.',
      },
    ],
  },
  DO_EXCH: {
    prompt: '1. Summarize each swap (old → new options), the price difference, and the payment method that pays or receives it.\n' +
      '2. Ask for an explicit "yes".\n' +
      '3. On "yes", call `exchange_delivered_order_items` once with all item ids, new item ids and the payment method id.\n' +
      '4. Tell the user the order is now "exchange requested" and an email will explain how to return the old items, then\n' +
      '   go to END_EXCH.',
    tools: ['exchange_delivered_order_items'],
    examples: [],
  },
  DO_USER_ADDR: {
    prompt: '1. State the complete new default address (address1, address2, city, state, country, zip) and ask for an\n' +
      '   explicit "yes".\n' +
      '2. On "yes", call `modify_user_address` once for the authenticated user.\n' +
      '3. Report the result; existing orders are not changed. Then go to END_UADDR.',
    tools: ['modify_user_address'],
    examples: [
      {
        user: 'Yes, make that my default address.',
        agent: 'Done: your default address is now 456 Elm Ave, Apt 2, Springfield, IL 62704, USA. Existing orders keep their shipping addresses.',
      },
    ],
  },
};

/** The domain tools each node of the `retail_customer_support` SOP allows (empty when its prompt names none). */
export const TOOLS_BY_NODE: { readonly [K in NodeId]: readonly ToolName[] } = {
  START: [],
  AUTH: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
  ROUTE: [],
  INFO: ['get_user_details', 'get_order_details', 'get_product_details', 'list_all_product_types', 'calculate'],
  CHK_CANCEL: ['get_user_details', 'get_order_details'],
  CHK_MOD: ['get_user_details', 'get_order_details'],
  CHK_RETURN: ['get_user_details', 'get_order_details'],
  CHK_EXCH: ['get_user_details', 'get_order_details'],
  COLLECT_USER_ADDR: [],
  ESCALATE_HUMAN: ['transfer_to_human_agents'],
  END_INFO: [],
  IS_PENDING_C: [],
  DENY_CANCEL: [],
  COLLECT_CANCEL: [],
  DO_CANCEL: ['calculate', 'cancel_pending_order'],
  END_CANCEL: [],
  IS_PENDING_M: [],
  DENY_MOD: [],
  COLLECT_MOD_ADDR: ['get_user_details', 'get_order_details'],
  MOD_TYPE: [],
  DO_MOD_ADDR: ['modify_pending_order_address'],
  END_MOD: [],
  COLLECT_MOD_ITEMS: ['get_product_details', 'get_user_details', 'calculate'],
  COLLECT_MOD_PAY: ['get_user_details', 'calculate'],
  DO_MOD_ITEMS: ['modify_pending_order_items'],
  IS_GC_OK: [],
  DENY_PAY: [],
  DO_MOD_PAY: ['modify_pending_order_payment'],
  IS_DELIVERED_R: [],
  DENY_RETURN: [],
  COLLECT_RETURN: ['get_user_details', 'calculate'],
  DO_RETURN: ['return_delivered_order_items'],
  END_RETURN: [],
  IS_DELIVERED_E: [],
  DENY_EXCH: [],
  COLLECT_EXCH: ['get_product_details', 'get_user_details', 'calculate'],
  DO_EXCH: ['exchange_delivered_order_items'],
  END_EXCH: [],
  DO_USER_ADDR: ['modify_user_address'],
  END_UADDR: [],
};

/**
 * The moves the `retail_customer_support` SOP allows: the entry node (always), a hub on the path, a successor of
 * the current node. The server and the machine in `./machine.js` both follow this table.
 */
export const TRANSITIONS: TransitionTable<NodeId> = {
  entry: 'START',
  hubs: ['ROUTE'],
  successors: {
    START: ['AUTH'],
    AUTH: ['ROUTE'],
    ROUTE: ['INFO', 'CHK_CANCEL', 'CHK_MOD', 'CHK_RETURN', 'CHK_EXCH', 'COLLECT_USER_ADDR', 'ESCALATE_HUMAN'],
    INFO: ['END_INFO'],
    CHK_CANCEL: ['IS_PENDING_C'],
    CHK_MOD: ['IS_PENDING_M'],
    CHK_RETURN: ['IS_DELIVERED_R'],
    CHK_EXCH: ['IS_DELIVERED_E'],
    COLLECT_USER_ADDR: ['DO_USER_ADDR'],
    ESCALATE_HUMAN: [],
    END_INFO: [],
    IS_PENDING_C: ['DENY_CANCEL', 'COLLECT_CANCEL'],
    DENY_CANCEL: [],
    COLLECT_CANCEL: ['DO_CANCEL'],
    DO_CANCEL: ['END_CANCEL', 'ROUTE'],
    END_CANCEL: [],
    IS_PENDING_M: ['DENY_MOD', 'COLLECT_MOD_ADDR', 'MOD_TYPE'],
    DENY_MOD: [],
    COLLECT_MOD_ADDR: ['DO_MOD_ADDR'],
    MOD_TYPE: ['COLLECT_MOD_ITEMS', 'COLLECT_MOD_PAY'],
    DO_MOD_ADDR: ['END_MOD'],
    END_MOD: [],
    COLLECT_MOD_ITEMS: ['DO_MOD_ITEMS', 'ROUTE'],
    COLLECT_MOD_PAY: ['IS_GC_OK'],
    DO_MOD_ITEMS: ['END_MOD'],
    IS_GC_OK: ['DENY_PAY', 'DO_MOD_PAY'],
    DENY_PAY: [],
    DO_MOD_PAY: ['END_MOD'],
    IS_DELIVERED_R: ['DENY_RETURN', 'COLLECT_RETURN'],
    DENY_RETURN: [],
    COLLECT_RETURN: ['DO_RETURN', 'CHK_EXCH'],
    DO_RETURN: ['END_RETURN'],
    END_RETURN: [],
    IS_DELIVERED_E: ['DENY_EXCH', 'COLLECT_EXCH'],
    DENY_EXCH: [],
    COLLECT_EXCH: ['DO_EXCH'],
    DO_EXCH: ['END_EXCH'],
    END_EXCH: [],
    DO_USER_ADDR: ['END_UADDR'],
    END_UADDR: [],
  },
};

/**
 * The policies of the `retail_customer_support` SOP, resolved to node ids: `sop build` proved each over every path;
 * `sop replay` checks conversations against them.
 */
export const POLICIES: readonly CompiledPolicy<NodeId, ToolName>[] = [
  {
    id: 'authenticate_first',
    description: 'No request is handled before the user is authenticated.',
    severity: 'error',
    guards: [
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
    ],
    tools: [],
    passes: ['AUTH'],
    confirmation: null,
    evidence: true,
  },
  {
    id: 'status_checked_before_changes',
    description: 'An order is changed only after its status was read and decided on.',
    severity: 'error',
    guards: ['DO_CANCEL', 'DO_MOD_ADDR', 'DO_MOD_ITEMS', 'DO_MOD_PAY', 'DO_RETURN', 'DO_EXCH'],
    tools: [],
    passes: ['IS_PENDING_C', 'IS_PENDING_M', 'IS_DELIVERED_R', 'IS_DELIVERED_E'],
    confirmation: null,
  },
  {
    id: 'order_read_before_changes',
    description: 'An order is changed only after it was read at its check step.',
    severity: 'error',
    guards: ['DO_CANCEL', 'DO_MOD_ADDR', 'DO_MOD_ITEMS', 'DO_MOD_PAY', 'DO_RETURN', 'DO_EXCH'],
    tools: [],
    passes: ['CHK_CANCEL', 'CHK_MOD', 'CHK_RETURN', 'CHK_EXCH'],
    confirmation: null,
    evidence: true,
  },
  {
    id: 'confirm_before_changes',
    description: 'Every change waits for the user\'s explicit "yes" at its confirmation step.',
    severity: 'error',
    guards: ['DO_CANCEL', 'DO_MOD_ADDR', 'DO_MOD_ITEMS', 'DO_MOD_PAY', 'DO_RETURN', 'DO_EXCH', 'DO_USER_ADDR'],
    tools: [
      'cancel_pending_order',
      'modify_pending_order_address',
      'modify_pending_order_items',
      'modify_pending_order_payment',
      'modify_user_address',
      'return_delivered_order_items',
      'exchange_delivered_order_items',
    ],
    passes: ['DO_CANCEL', 'DO_MOD_ADDR', 'DO_MOD_ITEMS', 'DO_MOD_PAY', 'DO_RETURN', 'DO_EXCH', 'DO_USER_ADDR'],
    confirmation: '^\\W*(yes|yeah|yep|yup|sure|correct|confirm(ed)?|i confirm|go ahead|please do|please proceed|proceed|do it)\\b(?!\\W*(but|wait|hold|first|not|no)\\b)',
  },
];

/**
 * What nodes of the `retail_customer_support` SOP require before a run goes on from them in gateway mode: a call of
 * one of `tools` that found something (made earlier in the run, or during the visit with `fresh`), about the entity
 * `about` names when it names one, and whose answer shows what `shows` says.
 */
export const EVIDENCE: { readonly [K in NodeId]?: EvidenceRequirement<ToolName> } = {
  AUTH: {
    tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'],
    about: 'user_id',
  },
  CHK_CANCEL: {
    tools: ['get_order_details'],
    about: 'order_id',
  },
  CHK_MOD: {
    tools: ['get_order_details'],
    about: 'order_id',
  },
  CHK_RETURN: {
    tools: ['get_order_details'],
    about: 'order_id',
  },
  CHK_EXCH: {
    tools: ['get_order_details'],
    about: 'order_id',
  },
};

/**
 * The edges of the `retail_customer_support` SOP decided by data (`when`): per node, per successor, the condition
 * over an answer read earlier in the run that the move along that edge needs (gateway mode). An edge without one is
 * the agent's judgement.
 */
export const CONDITIONS: { readonly [K in NodeId]?: { readonly [T in Successors[K]]?: DataCondition<ToolName> } } = {
  IS_PENDING_C: {
    DENY_CANCEL: {
      tool: 'get_order_details',
      field: ['status'],
      op: '!=',
      values: ['pending'],
      text: 'get_order_details.status != pending',
    },
    COLLECT_CANCEL: {
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['pending'],
      text: 'get_order_details.status == pending',
    },
  },
  IS_PENDING_M: {
    DENY_MOD: {
      tool: 'get_order_details',
      field: ['status'],
      op: '!=',
      values: ['pending'],
      text: 'get_order_details.status != pending',
    },
    COLLECT_MOD_ADDR: {
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['pending'],
      text: 'get_order_details.status == pending',
    },
    MOD_TYPE: {
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['pending'],
      text: 'get_order_details.status == pending',
    },
  },
  IS_DELIVERED_R: {
    DENY_RETURN: {
      tool: 'get_order_details',
      field: ['status'],
      op: '!=',
      values: ['delivered'],
      text: 'get_order_details.status != delivered',
    },
    COLLECT_RETURN: {
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['delivered'],
      text: 'get_order_details.status == delivered',
    },
  },
  IS_DELIVERED_E: {
    DENY_EXCH: {
      tool: 'get_order_details',
      field: ['status'],
      op: '!=',
      values: ['delivered'],
      text: 'get_order_details.status != delivered',
    },
    COLLECT_EXCH: {
      tool: 'get_order_details',
      field: ['status'],
      op: '==',
      values: ['delivered'],
      text: 'get_order_details.status == delivered',
    },
  },
};

/** The system prompt of the `retail_customer_support` SOP: every section before `## Node Prompts`, as written. */
export const SYSTEM_PROMPT: string = '## Role\n' +
  '\n' +
  'You are the customer support agent of an online retail store. You help one authenticated customer per\n' +
  'conversation with questions about their account, orders and products, and with these actions: cancelling or\n' +
  'modifying pending orders, returning or exchanging items of delivered orders, and updating their default address.\n' +
  'You act only through the tools of the `retail-tools` server, and only as this SOP allows.\n' +
  '\n' +
  '## Global Rules\n' +
  '\n' +
  '- Authenticate the user first (node AUTH), even when they already give you a user id.\n' +
  '- Serve exactly one user per conversation. Refuse any request about another customer\'s account or orders.\n' +
  '- Before every action that changes data (cancel, modify, return, exchange, address update), list the exact\n' +
  '  details and wait for an explicit "yes". Anything else is not a confirmation.\n' +
  '- Make at most one tool call at a time, and do not reply to the user while a tool call is pending.\n' +
  '- Use only facts from tool results, the user, and this document. Never invent order ids, prices, item ids,\n' +
  '  availability or procedures, and never give subjective product advice.\n' +
  '- Do all arithmetic with the `calculate` tool.\n' +
  '- Refuse requests that break the policy below, say briefly which rule applies, and offer what is possible.\n' +
  '- Transfer to a human only when the request cannot be handled within this SOP or the user explicitly asks for one.\n' +
  '\n' +
  '## Domain Reference\n' +
  '\n' +
  '**Order statuses**\n' +
  '\n' +
  '| status | meaning | allowed actions |\n' +
  '| --- | --- | --- |\n' +
  '| `pending` | placed, not yet packed | cancel; modify shipping address, payment method, or items (once) |\n' +
  '| `pending (item modified)` | items already changed once | none: no more modification, no cancellation |\n' +
  '| `processed` | packed, about to ship | none |\n' +
  '| `delivered` | received by the customer | return or exchange items |\n' +
  '| `cancelled` | cancelled | none |\n' +
  '\n' +
  '**Payment methods**: gift card, PayPal, credit card. Each order is paid with a single method. A gift card can\n' +
  'only be used when its balance covers the whole amount to charge.\n' +
  '\n' +
  '**Refunds** go to the original payment method, or (returns only) to an existing gift card of the user. Gift card\n' +
  'refunds are immediate; PayPal and credit card refunds take 5–7 business days.\n' +
  '\n' +
  '**Cancel**: only `pending` orders. The reason must be "no longer needed" or "ordered by mistake". The full amount\n' +
  'is refunded.\n' +
  '\n' +
  '**Modify a pending order**:\n' +
  '- shipping address: any complete address (address1, address2, city, state, country, zip);\n' +
  '- payment method: switch to another saved method of the user; a gift card needs enough balance;\n' +
  '- items: each item may be swapped for another variant of the same product (different options), if available.\n' +
  '  Items can be modified only once per order, so collect every change before acting; afterwards the status becomes\n' +
  '  `pending (item modified)`. The price difference is charged to or refunded to a payment method the user chooses.\n' +
  '\n' +
  '**Return / exchange**: only `delivered` orders. Collect all items in one request; an exchange keeps the same\n' +
  'product type with different options, and the price difference is settled with a payment method. No new order is\n' +
  'needed. After the request the user receives an email explaining how to send the items back.\n' +
  '\n' +
  '**User address**: changing the default address does not change any existing order, and vice versa.\n' +
  '\n' +
  '**Out of scope**: anything not covered here (e.g. account deletion, complaints about staff, damaged deliveries\n' +
  'needing investigation) goes to a human agent.\n' +
  '\n' +
  '## How to Use the SOP Graph\n' +
  '\n' +
  '- The flowchart below is your procedure. Move through it with `goto_node(node_id)`; each answer gives the node\'s\n' +
  '  instructions, the tools you may use there, examples, and the edges you may take next.\n' +
  '- Call `goto_node` before acting at a node. At a decision node (`{...}`), pick the edge whose label matches the\n' +
  '  facts you have established, and go to its target.\n' +
  '- `goto_node("START")` restarts. `ROUTE` is a hub: once you have passed through it, you may return to it from any\n' +
  '  node, e.g. when the user changes their mind or to begin the next task.\n' +
  '- When the user has several requests, first write them with `todo`, each with its `completion_node` (the END_* node\n' +
  '  of that flow). Record discoveries that matter to later tasks in a task\'s `note`. When you reach a completion node,\n' +
  '  update the todo list, then go back to ROUTE for the next pending task.\n' +
  '- Reaching a DENY_* node means the request is refused by policy: explain why, offer alternatives, then continue with\n' +
  '  any remaining tasks.\n' +
  '\n' +
  '## SOP Flowchart\n' +
  '\n' +
  '```mermaid\n' +
  'flowchart TD\n' +
  '    %% Entry: every conversation is authenticated before any intent is handled\n' +
  '    START([User contacts Agent]) --> AUTH["Authenticate via email or name + zip"]\n' +
  '    AUTH --> ROUTE{Intent?}\n' +
  '\n' +
  '    %% ROUTE is the hub: one labelled branch per intent\n' +
  '    ROUTE -->|question about account, orders or products| INFO["Answer with read-only lookups"]\n' +
  '    ROUTE -->|cancel a pending order| CHK_CANCEL["Check order status"]\n' +
  '    ROUTE -->|modify a pending order| CHK_MOD["Check order status"]\n' +
  '    ROUTE -->|return delivered items| CHK_RETURN["Check order status"]\n' +
  '    ROUTE -->|exchange delivered items| CHK_EXCH["Check order status"]\n' +
  '    ROUTE -->|update default address| COLLECT_USER_ADDR["Collect: user_id, new address"]\n' +
  '    ROUTE -->|out of scope / user asks for a human| ESCALATE_HUMAN([Transfer to human agent])\n' +
  '\n' +
  '    INFO --> END_INFO([End / Restart])\n' +
  '\n' +
  '    %% Cancel a pending order\n' +
  '    CHK_CANCEL --> IS_PENDING_C{status == pending?}\n' +
  '    IS_PENDING_C -->|no| DENY_CANCEL([Cannot cancel: order is not pending])\n' +
  '    IS_PENDING_C -->|yes| COLLECT_CANCEL["Collect: order_id, reason"]\n' +
  '    COLLECT_CANCEL --> DO_CANCEL["Confirm, then cancel the order"]\n' +
  '    DO_CANCEL --> END_CANCEL([End / Restart])\n' +
  '    DO_CANCEL -.->|user does not confirm| ROUTE\n' +
  '\n' +
  '    %% Modify a pending order: address, items or payment method\n' +
  '    CHK_MOD --> IS_PENDING_M{status == pending?}\n' +
  '    IS_PENDING_M -->|no| DENY_MOD([Cannot modify: order is not pending])\n' +
  '    IS_PENDING_M -->|yes: shipping address| COLLECT_MOD_ADDR["Collect: order_id, new shipping address"]\n' +
  '    IS_PENDING_M -->|yes: items or payment method| MOD_TYPE{What to modify?}\n' +
  '    COLLECT_MOD_ADDR --> DO_MOD_ADDR["Confirm, then update the order address"]\n' +
  '    DO_MOD_ADDR --> END_MOD([End / Restart])\n' +
  '    MOD_TYPE -->|items| COLLECT_MOD_ITEMS["Collect: order_id, all item changes, payment method"]\n' +
  '    MOD_TYPE -->|payment method| COLLECT_MOD_PAY["Collect: order_id, new payment method"]\n' +
  '    COLLECT_MOD_ITEMS --> DO_MOD_ITEMS["Confirm, then modify the items"]\n' +
  '    COLLECT_MOD_ITEMS -.->|user changes mind| ROUTE\n' +
  '    DO_MOD_ITEMS --> END_MOD\n' +
  '    COLLECT_MOD_PAY --> IS_GC_OK{gift card balance covers the total?}\n' +
  '    IS_GC_OK -->|no| DENY_PAY([Cannot switch: gift card balance too low])\n' +
  '    IS_GC_OK -->|yes, or new method is not a gift card| DO_MOD_PAY["Confirm, then change the payment method"]\n' +
  '    DO_MOD_PAY --> END_MOD\n' +
  '\n' +
  '    %% Return items of a delivered order\n' +
  '    CHK_RETURN --> IS_DELIVERED_R{status == delivered?}\n' +
  '    IS_DELIVERED_R -->|no| DENY_RETURN([Cannot return: order is not delivered])\n' +
  '    IS_DELIVERED_R -->|yes| COLLECT_RETURN["Collect: order_id, items, refund method"]\n' +
  '    COLLECT_RETURN --> DO_RETURN["Confirm, then request the return"]\n' +
  '    COLLECT_RETURN -.->|user prefers an exchange| CHK_EXCH\n' +
  '    DO_RETURN --> END_RETURN([End / Restart])\n' +
  '\n' +
  '    %% Exchange items of a delivered order\n' +
  '    CHK_EXCH --> IS_DELIVERED_E{status == delivered?}\n' +
  '    IS_DELIVERED_E -->|no| DENY_EXCH([Cannot exchange: order is not delivered])\n' +
  '    IS_DELIVERED_E -->|yes| COLLECT_EXCH["Collect: order_id, all item exchanges"]\n' +
  '    COLLECT_EXCH --> DO_EXCH["Confirm, then request the exchange"]\n' +
  '    DO_EXCH --> END_EXCH([End / Restart])\n' +
  '\n' +
  '    %% Default address on the user profile\n' +
  '    COLLECT_USER_ADDR --> DO_USER_ADDR["Confirm, then update the default address"]\n' +
  '    DO_USER_ADDR --> END_UADDR([End / Restart])\n' +
  '```';

/** Headings of the sections in `SYSTEM_PROMPT`, in order. */
export const SYSTEM_PROMPT_SECTIONS: readonly string[] = [
  'Role',
  'Global Rules',
  'Domain Reference',
  'How to Use the SOP Graph',
  'SOP Flowchart',
];

/** The Mermaid source of the `retail_customer_support` SOP, as written (comments included). */
export const FLOWCHART: string = 'flowchart TD\n' +
  '    %% Entry: every conversation is authenticated before any intent is handled\n' +
  '    START([User contacts Agent]) --> AUTH["Authenticate via email or name + zip"]\n' +
  '    AUTH --> ROUTE{Intent?}\n' +
  '\n' +
  '    %% ROUTE is the hub: one labelled branch per intent\n' +
  '    ROUTE -->|question about account, orders or products| INFO["Answer with read-only lookups"]\n' +
  '    ROUTE -->|cancel a pending order| CHK_CANCEL["Check order status"]\n' +
  '    ROUTE -->|modify a pending order| CHK_MOD["Check order status"]\n' +
  '    ROUTE -->|return delivered items| CHK_RETURN["Check order status"]\n' +
  '    ROUTE -->|exchange delivered items| CHK_EXCH["Check order status"]\n' +
  '    ROUTE -->|update default address| COLLECT_USER_ADDR["Collect: user_id, new address"]\n' +
  '    ROUTE -->|out of scope / user asks for a human| ESCALATE_HUMAN([Transfer to human agent])\n' +
  '\n' +
  '    INFO --> END_INFO([End / Restart])\n' +
  '\n' +
  '    %% Cancel a pending order\n' +
  '    CHK_CANCEL --> IS_PENDING_C{status == pending?}\n' +
  '    IS_PENDING_C -->|no| DENY_CANCEL([Cannot cancel: order is not pending])\n' +
  '    IS_PENDING_C -->|yes| COLLECT_CANCEL["Collect: order_id, reason"]\n' +
  '    COLLECT_CANCEL --> DO_CANCEL["Confirm, then cancel the order"]\n' +
  '    DO_CANCEL --> END_CANCEL([End / Restart])\n' +
  '    DO_CANCEL -.->|user does not confirm| ROUTE\n' +
  '\n' +
  '    %% Modify a pending order: address, items or payment method\n' +
  '    CHK_MOD --> IS_PENDING_M{status == pending?}\n' +
  '    IS_PENDING_M -->|no| DENY_MOD([Cannot modify: order is not pending])\n' +
  '    IS_PENDING_M -->|yes: shipping address| COLLECT_MOD_ADDR["Collect: order_id, new shipping address"]\n' +
  '    IS_PENDING_M -->|yes: items or payment method| MOD_TYPE{What to modify?}\n' +
  '    COLLECT_MOD_ADDR --> DO_MOD_ADDR["Confirm, then update the order address"]\n' +
  '    DO_MOD_ADDR --> END_MOD([End / Restart])\n' +
  '    MOD_TYPE -->|items| COLLECT_MOD_ITEMS["Collect: order_id, all item changes, payment method"]\n' +
  '    MOD_TYPE -->|payment method| COLLECT_MOD_PAY["Collect: order_id, new payment method"]\n' +
  '    COLLECT_MOD_ITEMS --> DO_MOD_ITEMS["Confirm, then modify the items"]\n' +
  '    COLLECT_MOD_ITEMS -.->|user changes mind| ROUTE\n' +
  '    DO_MOD_ITEMS --> END_MOD\n' +
  '    COLLECT_MOD_PAY --> IS_GC_OK{gift card balance covers the total?}\n' +
  '    IS_GC_OK -->|no| DENY_PAY([Cannot switch: gift card balance too low])\n' +
  '    IS_GC_OK -->|yes, or new method is not a gift card| DO_MOD_PAY["Confirm, then change the payment method"]\n' +
  '    DO_MOD_PAY --> END_MOD\n' +
  '\n' +
  '    %% Return items of a delivered order\n' +
  '    CHK_RETURN --> IS_DELIVERED_R{status == delivered?}\n' +
  '    IS_DELIVERED_R -->|no| DENY_RETURN([Cannot return: order is not delivered])\n' +
  '    IS_DELIVERED_R -->|yes| COLLECT_RETURN["Collect: order_id, items, refund method"]\n' +
  '    COLLECT_RETURN --> DO_RETURN["Confirm, then request the return"]\n' +
  '    COLLECT_RETURN -.->|user prefers an exchange| CHK_EXCH\n' +
  '    DO_RETURN --> END_RETURN([End / Restart])\n' +
  '\n' +
  '    %% Exchange items of a delivered order\n' +
  '    CHK_EXCH --> IS_DELIVERED_E{status == delivered?}\n' +
  '    IS_DELIVERED_E -->|no| DENY_EXCH([Cannot exchange: order is not delivered])\n' +
  '    IS_DELIVERED_E -->|yes| COLLECT_EXCH["Collect: order_id, all item exchanges"]\n' +
  '    COLLECT_EXCH --> DO_EXCH["Confirm, then request the exchange"]\n' +
  '    DO_EXCH --> END_EXCH([End / Restart])\n' +
  '\n' +
  '    %% Default address on the user profile\n' +
  '    COLLECT_USER_ADDR --> DO_USER_ADDR["Confirm, then update the default address"]\n' +
  '    DO_USER_ADDR --> END_UADDR([End / Restart])';

/** Frontmatter metadata of the `retail_customer_support` SOP. */
export const AGENT_META: AgentMeta = {
  agent: 'retail_customer_support',
  version: '1.0',
  description: 'Retail customer support agent for orders, returns, exchanges and account addresses',
  model: { provider: 'anthropic', name: 'claude-sonnet-4-5-20250929', temperature: 0.2, max_tokens: 1024 },
  mcpServers: [
    {
      name: 'retail-tools',
      command: 'node',
      args: ['dist/examples/retail-tools/main.js'],
      env: { RETAIL_TOOLS_DB: '${RETAIL_TOOLS_DB:-}' },
    },
  ],
};

/** The SOP this module was compiled from, relative to the project. */
export const SOURCE_FILE: string = 'sops/retail_customer_support.md';

/** sha256 of the source (line endings normalised): the SOP version a run pins. */
export const SOURCE_HASH: string = 'sha256:41d53ca497f80f8ae309e72ad9435f6db00608913af7917f80b9d8d662587888';

/** The `retail_customer_support` SOP, compiled: the same data the server loads from `sop-bundle.json`. */
export const SOP: CompiledSop<NodeId, ToolName> = {
  meta: AGENT_META,
  sourceFile: SOURCE_FILE,
  sourceHash: SOURCE_HASH,
  transitions: TRANSITIONS,
  nodeIds: NODE_IDS,
  nodes: NODES,
  edges: EDGES,
  prompts: PROMPTS,
  decisionNodes: DECISION_NODE_IDS,
  terminalNodes: TERMINAL_NODE_IDS,
  tools: TOOL_NAMES,
  toolsByNode: TOOLS_BY_NODE,
  systemPrompt: SYSTEM_PROMPT,
  systemPromptSections: SYSTEM_PROMPT_SECTIONS,
  flowchart: FLOWCHART,
  policies: POLICIES,
  evidence: EVIDENCE,
  conditions: CONDITIONS,
};
