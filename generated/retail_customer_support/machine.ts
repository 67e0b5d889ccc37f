// @generated from sops/retail_customer_support.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

import { assign, setup } from 'xstate';
import { enterPath } from 'sop-toolkit/contract';
import type { NodeId } from './ids.js';

/** Events of the `retail_customer_support` machine: `GOTO.<NodeId>` for every node a move can enter. */
export type RetailCustomerSupportEvent =
  | { type: 'GOTO.AUTH' }
  | { type: 'GOTO.CHK_CANCEL' }
  | { type: 'GOTO.CHK_EXCH' }
  | { type: 'GOTO.CHK_MOD' }
  | { type: 'GOTO.CHK_RETURN' }
  | { type: 'GOTO.COLLECT_CANCEL' }
  | { type: 'GOTO.COLLECT_EXCH' }
  | { type: 'GOTO.COLLECT_MOD_ADDR' }
  | { type: 'GOTO.COLLECT_MOD_ITEMS' }
  | { type: 'GOTO.COLLECT_MOD_PAY' }
  | { type: 'GOTO.COLLECT_RETURN' }
  | { type: 'GOTO.COLLECT_USER_ADDR' }
  | { type: 'GOTO.DENY_CANCEL' }
  | { type: 'GOTO.DENY_EXCH' }
  | { type: 'GOTO.DENY_MOD' }
  | { type: 'GOTO.DENY_PAY' }
  | { type: 'GOTO.DENY_RETURN' }
  | { type: 'GOTO.DO_CANCEL' }
  | { type: 'GOTO.DO_EXCH' }
  | { type: 'GOTO.DO_MOD_ADDR' }
  | { type: 'GOTO.DO_MOD_ITEMS' }
  | { type: 'GOTO.DO_MOD_PAY' }
  | { type: 'GOTO.DO_RETURN' }
  | { type: 'GOTO.DO_USER_ADDR' }
  | { type: 'GOTO.END_CANCEL' }
  | { type: 'GOTO.END_EXCH' }
  | { type: 'GOTO.END_INFO' }
  | { type: 'GOTO.END_MOD' }
  | { type: 'GOTO.END_RETURN' }
  | { type: 'GOTO.END_UADDR' }
  | { type: 'GOTO.ESCALATE_HUMAN' }
  | { type: 'GOTO.INFO' }
  | { type: 'GOTO.IS_DELIVERED_E' }
  | { type: 'GOTO.IS_DELIVERED_R' }
  | { type: 'GOTO.IS_GC_OK' }
  | { type: 'GOTO.IS_PENDING_C' }
  | { type: 'GOTO.IS_PENDING_M' }
  | { type: 'GOTO.MOD_TYPE' }
  | { type: 'GOTO.ROUTE' }
  | { type: 'GOTO.START' };

/**
 * The context of the `retail_customer_support` machine: the path, as the server keeps it (entry node first, current
 * node last).
 */
export interface RetailCustomerSupportContext {
  readonly path: readonly NodeId[];
}

/**
 * The `retail_customer_support` SOP as an XState machine: one flat state per node (flowchart order);
 * `GOTO.<NodeId>` moves along each edge, to the entry node from anywhere, and to a hub while it is on the path;
 * terminal nodes are tagged.
 */
export const retailCustomerSupportMachine = setup({
  types: {
    context: {} as RetailCustomerSupportContext,
    events: {} as RetailCustomerSupportEvent,
    tags: {} as 'terminal',
  },
  guards: {
    onPath: ({ context, event }) => context.path.includes(event.type.slice(5) as NodeId),
  },
  actions: {
    enter: assign({ path: ({ context, event }) => enterPath(context.path, event.type.slice(5) as NodeId, 'START') }),
  },
}).createMachine({
  id: 'retail_customer_support',
  initial: 'START',
  context: { path: ['START'] },
  on: {
    'GOTO.START': { target: '.START', actions: 'enter' },
    'GOTO.ROUTE': { target: '.ROUTE', guard: 'onPath', actions: 'enter' },
  },
  states: {
    START: {
      description: 'User contacts Agent',
      meta: { type: 'stadium' },
      on: { 'GOTO.AUTH': { target: 'AUTH', actions: 'enter' } },
    },
    AUTH: {
      description: 'Authenticate via email or name + zip',
      meta: { type: 'rectangle' },
      on: { 'GOTO.ROUTE': { target: 'ROUTE', actions: 'enter' } },
    },
    ROUTE: {
      description: 'Intent?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.INFO': { target: 'INFO', description: 'question about account, orders or products', actions: 'enter' },
        'GOTO.CHK_CANCEL': { target: 'CHK_CANCEL', description: 'cancel a pending order', actions: 'enter' },
        'GOTO.CHK_MOD': { target: 'CHK_MOD', description: 'modify a pending order', actions: 'enter' },
        'GOTO.CHK_RETURN': { target: 'CHK_RETURN', description: 'return delivered items', actions: 'enter' },
        'GOTO.CHK_EXCH': { target: 'CHK_EXCH', description: 'exchange delivered items', actions: 'enter' },
        'GOTO.COLLECT_USER_ADDR': {
          target: 'COLLECT_USER_ADDR',
          description: 'update default address',
          actions: 'enter',
        },
        'GOTO.ESCALATE_HUMAN': {
          target: 'ESCALATE_HUMAN',
          description: 'out of scope / user asks for a human',
          actions: 'enter',
        },
      },
    },
    INFO: {
      description: 'Answer with read-only lookups',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_INFO': { target: 'END_INFO', actions: 'enter' } },
    },
    CHK_CANCEL: {
      description: 'Check order status',
      meta: { type: 'rectangle' },
      on: { 'GOTO.IS_PENDING_C': { target: 'IS_PENDING_C', actions: 'enter' } },
    },
    CHK_MOD: {
      description: 'Check order status',
      meta: { type: 'rectangle' },
      on: { 'GOTO.IS_PENDING_M': { target: 'IS_PENDING_M', actions: 'enter' } },
    },
    CHK_RETURN: {
      description: 'Check order status',
      meta: { type: 'rectangle' },
      on: { 'GOTO.IS_DELIVERED_R': { target: 'IS_DELIVERED_R', actions: 'enter' } },
    },
    CHK_EXCH: {
      description: 'Check order status',
      meta: { type: 'rectangle' },
      on: { 'GOTO.IS_DELIVERED_E': { target: 'IS_DELIVERED_E', actions: 'enter' } },
    },
    COLLECT_USER_ADDR: {
      description: 'Collect: user_id, new address',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DO_USER_ADDR': { target: 'DO_USER_ADDR', actions: 'enter' } },
    },
    ESCALATE_HUMAN: {
      description: 'Transfer to human agent',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    END_INFO: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    IS_PENDING_C: {
      description: 'status == pending?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.DENY_CANCEL': { target: 'DENY_CANCEL', description: 'no', actions: 'enter' },
        'GOTO.COLLECT_CANCEL': { target: 'COLLECT_CANCEL', description: 'yes', actions: 'enter' },
      },
    },
    DENY_CANCEL: {
      description: 'Cannot cancel: order is not pending',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    COLLECT_CANCEL: {
      description: 'Collect: order_id, reason',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DO_CANCEL': { target: 'DO_CANCEL', actions: 'enter' } },
    },
    DO_CANCEL: {
      description: 'Confirm, then cancel the order',
      meta: { type: 'rectangle' },
      on: {
        'GOTO.END_CANCEL': { target: 'END_CANCEL', actions: 'enter' },
        'GOTO.ROUTE': {
          target: 'ROUTE',
          description: 'user does not confirm',
          meta: { style: 'dotted' },
          actions: 'enter',
        },
      },
    },
    END_CANCEL: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    IS_PENDING_M: {
      description: 'status == pending?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.DENY_MOD': { target: 'DENY_MOD', description: 'no', actions: 'enter' },
        'GOTO.COLLECT_MOD_ADDR': { target: 'COLLECT_MOD_ADDR', description: 'yes: shipping address', actions: 'enter' },
        'GOTO.MOD_TYPE': { target: 'MOD_TYPE', description: 'yes: items or payment method', actions: 'enter' },
      },
    },
    DENY_MOD: {
      description: 'Cannot modify: order is not pending',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    COLLECT_MOD_ADDR: {
      description: 'Collect: order_id, new shipping address',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DO_MOD_ADDR': { target: 'DO_MOD_ADDR', actions: 'enter' } },
    },
    MOD_TYPE: {
      description: 'What to modify?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.COLLECT_MOD_ITEMS': { target: 'COLLECT_MOD_ITEMS', description: 'items', actions: 'enter' },
        'GOTO.COLLECT_MOD_PAY': { target: 'COLLECT_MOD_PAY', description: 'payment method', actions: 'enter' },
      },
    },
    DO_MOD_ADDR: {
      description: 'Confirm, then update the order address',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_MOD': { target: 'END_MOD', actions: 'enter' } },
    },
    END_MOD: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    COLLECT_MOD_ITEMS: {
      description: 'Collect: order_id, all item changes, payment method',
      meta: { type: 'rectangle' },
      on: {
        'GOTO.DO_MOD_ITEMS': { target: 'DO_MOD_ITEMS', actions: 'enter' },
        'GOTO.ROUTE': {
          target: 'ROUTE',
          description: 'user changes mind',
          meta: { style: 'dotted' },
          actions: 'enter',
        },
      },
    },
    COLLECT_MOD_PAY: {
      description: 'Collect: order_id, new payment method',
      meta: { type: 'rectangle' },
      on: { 'GOTO.IS_GC_OK': { target: 'IS_GC_OK', actions: 'enter' } },
    },
    DO_MOD_ITEMS: {
      description: 'Confirm, then modify the items',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_MOD': { target: 'END_MOD', actions: 'enter' } },
    },
    IS_GC_OK: {
      description: 'gift card balance covers the total?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.DENY_PAY': { target: 'DENY_PAY', description: 'no', actions: 'enter' },
        'GOTO.DO_MOD_PAY': {
          target: 'DO_MOD_PAY',
          description: 'yes, or new method is not a gift card',
          actions: 'enter',
        },
      },
    },
    DENY_PAY: {
      description: 'Cannot switch: gift card balance too low',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    DO_MOD_PAY: {
      description: 'Confirm, then change the payment method',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_MOD': { target: 'END_MOD', actions: 'enter' } },
    },
    IS_DELIVERED_R: {
      description: 'status == delivered?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.DENY_RETURN': { target: 'DENY_RETURN', description: 'no', actions: 'enter' },
        'GOTO.COLLECT_RETURN': { target: 'COLLECT_RETURN', description: 'yes', actions: 'enter' },
      },
    },
    DENY_RETURN: {
      description: 'Cannot return: order is not delivered',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    COLLECT_RETURN: {
      description: 'Collect: order_id, items, refund method',
      meta: { type: 'rectangle' },
      on: {
        'GOTO.DO_RETURN': { target: 'DO_RETURN', actions: 'enter' },
        'GOTO.CHK_EXCH': {
          target: 'CHK_EXCH',
          description: 'user prefers an exchange',
          meta: { style: 'dotted' },
          actions: 'enter',
        },
      },
    },
    DO_RETURN: {
      description: 'Confirm, then request the return',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_RETURN': { target: 'END_RETURN', actions: 'enter' } },
    },
    END_RETURN: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    IS_DELIVERED_E: {
      description: 'status == delivered?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.DENY_EXCH': { target: 'DENY_EXCH', description: 'no', actions: 'enter' },
        'GOTO.COLLECT_EXCH': { target: 'COLLECT_EXCH', description: 'yes', actions: 'enter' },
      },
    },
    DENY_EXCH: {
      description: 'Cannot exchange: order is not delivered',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    COLLECT_EXCH: {
      description: 'Collect: order_id, all item exchanges',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DO_EXCH': { target: 'DO_EXCH', actions: 'enter' } },
    },
    DO_EXCH: {
      description: 'Confirm, then request the exchange',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_EXCH': { target: 'END_EXCH', actions: 'enter' } },
    },
    END_EXCH: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    DO_USER_ADDR: {
      description: 'Confirm, then update the default address',
      meta: { type: 'rectangle' },
      on: { 'GOTO.END_UADDR': { target: 'END_UADDR', actions: 'enter' } },
    },
    END_UADDR: {
      description: 'End / Restart',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
  },
});
