/**
 * What a customer of the retail SOP can want, as data (an intent with the orders, items, addresses and payment
 * methods it is about), and what the agent does for it: the steps along the intent's walk, each call with the
 * arguments the data gives, and what the agent and the user say around them (the question and the "yes" before a
 * change). Pure: the same intent and voice give the same steps.
 */
import type { Address, Order } from '../../../examples/retail-tools/data-model.js';
import type { Random } from '../../../fuzz/random.js';
import type { Line, Step } from './acts.js';
import { addressText, type Customer, itemsText, methodText, paidWith, type Swap } from './seed-facts.js';
import type { WalkKey } from './walks.js';

export const CHANGE_KINDS = ['cancel', 'modify_address', 'modify_payment', 'modify_items', 'return', 'exchange'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A change of an order (or its denial). */
export interface ChangeIntent {
  readonly kind: ChangeKind;
  /** The order the agent reads at the check step; with `readAtCheck` false it was read earlier, or never. */
  readonly order: Order;
  /** The order the change names: the one read, unless a deviation is planted. */
  readonly target: Order;
  readonly readAtCheck: boolean;
  /** The SOP denies it (the order's status, a gift card too low): the agent reads, refuses, changes nothing. */
  readonly denied?: true;
  readonly reason?: string;
  readonly address?: Address;
  readonly methodId?: string;
  readonly swaps?: readonly Swap[];
  readonly itemIds?: readonly string[];
}

export type InfoTopic =
  | { readonly order: Order }
  | { readonly productId: string; readonly productName: string }
  | { readonly account: true };

export type Intent =
  | ChangeIntent
  | { readonly kind: 'user_address'; readonly address: Address }
  | { readonly kind: 'info'; readonly about: InfoTopic }
  | { readonly kind: 'transfer'; readonly topic: string };

export const isChange = (intent: Intent): intent is ChangeIntent => (CHANGE_KINDS as readonly string[]).includes(intent.kind);

/** Whether the intent changes data (and so has a change call, a question and a yes). */
export const changesData = (intent: Intent): boolean => intent.kind === 'user_address' || (isChange(intent) && intent.denied !== true);

/** The walk an intent takes after the hub. */
export function walkKeyOf(intent: Intent): WalkKey {
  const denied = isChange(intent) && intent.denied === true;
  switch (intent.kind) {
    case 'cancel':
      return { terminal: denied ? 'DENY_CANCEL' : 'END_CANCEL' };
    case 'modify_address':
      return denied ? { terminal: 'DENY_MOD' } : { terminal: 'END_MOD', through: ['COLLECT_MOD_ADDR'] };
    case 'modify_payment':
      return { terminal: denied ? 'DENY_PAY' : 'END_MOD', through: ['COLLECT_MOD_PAY'] };
    case 'modify_items':
      return denied ? { terminal: 'DENY_MOD' } : { terminal: 'END_MOD', through: ['COLLECT_MOD_ITEMS'] };
    case 'return':
      return { terminal: denied ? 'DENY_RETURN' : 'END_RETURN', avoid: ['CHK_EXCH'] };
    case 'exchange':
      return { terminal: denied ? 'DENY_EXCH' : 'END_EXCH', avoid: ['COLLECT_RETURN'] };
    case 'user_address':
      return { terminal: 'END_UADDR' };
    case 'info':
      return { terminal: 'END_INFO' };
    case 'transfer':
      return { terminal: 'ESCALATE_HUMAN' };
  }
}

/** The change call of an intent, on its target order. */
export function changeCall(intent: Intent, customer: Customer): { readonly tool: string; readonly args: Record<string, unknown> } | null {
  if (intent.kind === 'user_address') return { tool: 'modify_user_address', args: { user_id: customer.userId, ...intent.address } };
  if (!isChange(intent) || intent.denied === true) return null;
  const order_id = intent.target.order_id;
  const swapped = (swaps: readonly Swap[]) => ({
    item_ids: swaps.map((swap) => swap.item.item_id),
    new_item_ids: swaps.map((swap) => swap.to.item_id),
  });
  switch (intent.kind) {
    case 'cancel':
      return { tool: 'cancel_pending_order', args: { order_id, reason: intent.reason } };
    case 'modify_address':
      return { tool: 'modify_pending_order_address', args: { order_id, ...intent.address } };
    case 'modify_payment':
      return { tool: 'modify_pending_order_payment', args: { order_id, payment_method_id: intent.methodId } };
    case 'modify_items':
      return {
        tool: 'modify_pending_order_items',
        args: { order_id, ...swapped(intent.swaps ?? []), payment_method_id: intent.methodId },
      };
    case 'return':
      return { tool: 'return_delivered_order_items', args: { order_id, item_ids: intent.itemIds, payment_method_id: intent.methodId } };
    case 'exchange':
      return {
        tool: 'exchange_delivered_order_items',
        args: { order_id, ...swapped(intent.swaps ?? []), payment_method_id: intent.methodId },
      };
  }
}

/** What the user asks for, as a clause: "cancel order #W4817420". */
export function requestOf(intent: Intent): string {
  switch (intent.kind) {
    case 'cancel':
      return `cancel order ${intent.order.order_id}`;
    case 'modify_address':
      return `change the shipping address of order ${intent.order.order_id}`;
    case 'modify_payment':
      return `pay order ${intent.order.order_id} with another payment method`;
    case 'modify_items':
      return `change an item of order ${intent.order.order_id}`;
    case 'return':
      return `return items of order ${intent.order.order_id}`;
    case 'exchange':
      return `exchange an item of order ${intent.order.order_id}`;
    case 'user_address':
      return 'update my default address';
    case 'info':
      return 'order' in intent.about
        ? `know the status of order ${intent.about.order.order_id}`
        : 'productId' in intent.about
          ? `know which ${intent.about.productName} options you have`
          : 'know which orders I have';
    case 'transfer':
      return `talk to a human about ${intent.topic}`;
  }
}

const YES = ['Yes, please go ahead.', 'Yes.', 'Yes, do it.', 'Sure, go ahead.', 'Yes please, proceed.'];
const money = (amount: number) => `$${amount.toFixed(2)}`;

/** The steps of an intent and what the agent says when its walk ends. */
export function stepsOf(
  intent: Intent,
  customer: Customer,
  voice: Random,
): { readonly steps: readonly Step[]; readonly closing: readonly Line[] } {
  const ask = (text: string): Line => ({ say: `${text} Shall I go ahead? Please answer yes or no.`, role: 'ask' });
  const yes = (): Line => ({ user: voice.pick(YES), role: 'yes' });
  const change = changeCall(intent, customer);
  const confirmed = (question: string): Step => ({ call: { ...change!, role: 'change' }, before: [ask(question), yes()] });
  const method = (id: string | undefined) => methodText(customer.paymentMethods.find((m) => m.id === id));

  if (intent.kind === 'user_address') {
    const address = addressText(intent.address);
    return {
      steps: [
        { at: 'COLLECT_USER_ADDR', before: [{ say: 'What is the new default address?' }, { user: `It's ${address}.` }] },
        confirmed(`To confirm: your default address becomes ${address}; existing orders keep theirs.`),
      ],
      closing: [{ say: `Done: your default address is now ${address}.` }],
    };
  }
  if (intent.kind === 'info') {
    const about = intent.about;
    if ('order' in about) {
      const order = about.order;
      return {
        steps: [
          {
            call: { tool: 'get_order_details', args: { order_id: order.order_id }, role: 'read' },
            after: [{ say: `Order ${order.order_id} (${itemsText(order)}) is ${order.status}.`, role: 'read' }],
          },
        ],
        closing: [],
      };
    }
    if ('productId' in about) {
      return {
        steps: [
          { call: { tool: 'list_all_product_types', args: {}, role: 'other' } },
          {
            call: { tool: 'get_product_details', args: { product_id: about.productId }, role: 'other' },
            after: [{ say: `Here are the ${about.productName} options we have, with their prices and availability.` }],
          },
        ],
        closing: [],
      };
    }
    return {
      steps: [
        {
          call: { tool: 'get_user_details', args: { user_id: customer.userId }, role: 'other' },
          after: [{ say: `You have ${customer.orders.length} orders: ${customer.orders.map((o) => o.order_id).join(', ')}.` }],
        },
      ],
      closing: [],
    };
  }
  if (intent.kind === 'transfer') {
    return {
      steps: [
        {
          call: {
            tool: 'transfer_to_human_agents',
            args: { summary: `User ${customer.userId} (authenticated) wants to talk to a human about ${intent.topic}.` },
            role: 'other',
          },
          before: [{ say: 'That is something a human colleague has to handle. I will transfer you now.' }],
        },
      ],
      closing: [{ say: 'You are being transferred to a human agent. Please hold on.' }],
    };
  }

  const order = intent.order;
  const target = intent.target;
  const read: Step[] = intent.readAtCheck
    ? [
        {
          call: { tool: 'get_order_details', args: { order_id: order.order_id }, role: 'read' },
          after: [{ say: `Order ${order.order_id} (${itemsText(order)}) is ${order.status}.`, role: 'read' }],
        },
      ]
    : [];
  const { total, methodId: paidBy } = paidWith(target);
  switch (intent.kind) {
    case 'cancel':
      if (intent.denied)
        return {
          steps: read,
          closing: [{ say: `I'm sorry: order ${order.order_id} is ${order.status}, and only pending orders can be cancelled.` }],
        };
      return {
        steps: [
          ...read,
          {
            at: 'COLLECT_CANCEL',
            before: [
              { say: "Why do you want to cancel it: 'no longer needed' or 'ordered by mistake'?" },
              { user: `It's ${intent.reason}.` },
            ],
          },
          confirmed(
            `To confirm: cancel order ${target.order_id} (${itemsText(target)}), reason "${intent.reason}"; ${money(total)} goes back to ${method(paidBy)}.`,
          ),
        ],
        closing: [{ say: `Done: order ${target.order_id} is cancelled.` }],
      };
    case 'modify_address': {
      if (intent.denied)
        return {
          steps: read,
          closing: [{ say: `I'm sorry: order ${order.order_id} is ${order.status}, and only pending orders can be changed.` }],
        };
      const address = addressText(intent.address!);
      return {
        steps: [
          ...read,
          { at: 'COLLECT_MOD_ADDR', before: [{ say: 'Where should it ship instead?' }, { user: `Please send it to ${address}.` }] },
          confirmed(`To confirm: order ${target.order_id} will ship to ${address}.`),
        ],
        closing: [{ say: `Done: order ${target.order_id} will ship to ${address}.` }],
      };
    }
    case 'modify_payment': {
      const lookup: Step = {
        at: 'COLLECT_MOD_PAY',
        before: [{ user: `Please charge ${method(intent.methodId)} instead.` }],
        call: { tool: 'get_user_details', args: { user_id: customer.userId }, role: 'other' },
        after: [{ say: `The order total is ${money(total)}.` }],
      };
      if (intent.denied)
        return {
          steps: [...read, lookup],
          closing: [
            { say: `I'm sorry: ${method(intent.methodId)} does not cover the total of ${money(total)}, so I cannot switch to it.` },
          ],
        };
      return {
        steps: [
          ...read,
          lookup,
          confirmed(`To confirm: order ${target.order_id} will be paid with ${method(intent.methodId)}, and ${method(paidBy)} refunded.`),
        ],
        closing: [{ say: `Done: order ${target.order_id} is now paid with ${method(intent.methodId)}.` }],
      };
    }
    case 'modify_items':
    case 'exchange': {
      const denial = intent.kind === 'exchange' ? 'only delivered orders can be exchanged' : 'only pending orders can be changed';
      if (intent.denied)
        return { steps: read, closing: [{ say: `I'm sorry: order ${order.order_id} is ${order.status}, and ${denial}.` }] };
      const swaps = intent.swaps ?? [];
      const first = swaps[0]!;
      const difference = swaps.reduce((sum, swap) => sum + Math.round(swap.to.price * 100) - Math.round(swap.item.price * 100), 0) / 100;
      const collect = intent.kind === 'exchange' ? 'COLLECT_EXCH' : 'COLLECT_MOD_ITEMS';
      const what = swaps.map((swap) => `${swap.item.name} → ${Object.values(swap.to.options).join(', ')}`).join('; ');
      return {
        steps: [
          ...read,
          {
            at: collect,
            before: [{ user: `I'd like the ${first.item.name} in ${Object.values(first.to.options).join(', ')} instead.` }],
            call: { tool: 'get_product_details', args: { product_id: first.item.product_id }, role: 'other' },
            after: [{ say: `That option is available at ${money(first.to.price)}.` }],
          },
          {
            call: {
              tool: 'calculate',
              args: { expression: swaps.map((swap) => `${swap.to.price} - ${swap.item.price}`).join(' + ') },
              role: 'other',
            },
            after: [
              {
                say: `The price difference is ${money(difference)}, settled with ${method(intent.methodId)}. Is that every item you want to change?`,
              },
              { user: "That's all." },
            ],
          },
          confirmed(
            `To confirm: in order ${target.order_id}, ${what}; the difference of ${money(difference)} is settled with ${method(intent.methodId)}.`,
          ),
        ],
        closing: [
          { say: `Done: the ${intent.kind === 'exchange' ? 'exchange is requested' : 'items are changed'} for order ${target.order_id}.` },
        ],
      };
    }
    case 'return': {
      if (intent.denied)
        return {
          steps: read,
          closing: [{ say: `I'm sorry: order ${order.order_id} is ${order.status}, and only delivered orders can be returned.` }],
        };
      const itemIds = intent.itemIds ?? [];
      const items = target.items.filter((item) => itemIds.includes(item.item_id));
      const refund = items.reduce((sum, item) => sum + Math.round(item.price * 100), 0) / 100;
      const sum: Step[] =
        items.length > 1
          ? [{ call: { tool: 'calculate', args: { expression: items.map((item) => String(item.price)).join(' + ') }, role: 'other' } }]
          : [];
      return {
        steps: [
          ...read,
          {
            at: 'COLLECT_RETURN',
            before: [
              { say: 'Which items would you like to return, and where should the refund go?' },
              { user: `The ${items.map((item) => item.name).join(' and ')}, refunded to ${method(intent.methodId)}.` },
            ],
          },
          ...sum,
          confirmed(
            `To confirm: return ${items.map((item) => item.name).join(' and ')} from order ${target.order_id}; ${money(refund)} is refunded to ${method(intent.methodId)}.`,
          ),
        ],
        closing: [{ say: `Done: the return is requested; you will get an email explaining how to send the items back.` }],
      };
    }
  }
}
