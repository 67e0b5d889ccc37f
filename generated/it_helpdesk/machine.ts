// @generated from sops/it_helpdesk_password_reset.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

import { assign, setup } from 'xstate';
import { countVisit, enterPath, hasVisitsLeft } from 'sop-toolkit/contract';
import type { Visits } from 'sop-toolkit/contract';
import type { NodeId } from './ids.js';

/** A limited node and its `max_visits`, as the escalation guards are given them. */
export type UsedUp = { readonly node: NodeId; readonly max: number };

/** Events of the `it_helpdesk` machine: `GOTO.<NodeId>` for every node a move can enter. */
export type ItHelpdeskEvent =
  | { type: 'GOTO.ACCT_STATE' }
  | { type: 'GOTO.CAN_SIGN_IN' }
  | { type: 'GOTO.CHECK_ACCT' }
  | { type: 'GOTO.CLOSE_TICKET' }
  | { type: 'GOTO.DENY_DISABLED' }
  | { type: 'GOTO.DENY_OTHER' }
  | { type: 'GOTO.DONE' }
  | { type: 'GOTO.GUIDE' }
  | { type: 'GOTO.HANDOFF' }
  | { type: 'GOTO.IDENTIFY' }
  | { type: 'GOTO.INTAKE' }
  | { type: 'GOTO.IS_VERIFIED' }
  | { type: 'GOTO.KNOWS_PW' }
  | { type: 'GOTO.MFA_ENROLL' }
  | { type: 'GOTO.MFA_RESET' }
  | { type: 'GOTO.RESET_PW' }
  | { type: 'GOTO.SECURITY_HOLD' }
  | { type: 'GOTO.TRIAGE' }
  | { type: 'GOTO.UNLOCK' }
  | { type: 'GOTO.VERIFY' };

/**
 * The context of the `it_helpdesk` machine: the path (entry node first, current node last) and the visits to
 * limited nodes, as the server keeps them.
 */
export interface ItHelpdeskContext {
  readonly path: readonly NodeId[];
  readonly visits: Visits;
}

/**
 * The `it_helpdesk` SOP as an XState machine: one flat state per node (flowchart order); `GOTO.<NodeId>` moves
 * along each edge, to the entry node from anywhere, and to a hub while it is on the path; terminal nodes are
 * tagged. A node with a visit limit is entered only while it has visits left; once it has none, its escalation node
 * is entered instead.
 */
export const itHelpdeskMachine = setup({
  types: { context: {} as ItHelpdeskContext, events: {} as ItHelpdeskEvent, tags: {} as 'terminal' },
  guards: {
    onPath: ({ context, event }) => context.path.includes(event.type.slice(5) as NodeId),
    withinLimit: ({ context, event }, params: { max: number }) =>
      hasVisitsLeft(context.visits, event.type.slice(5) as NodeId, params.max),
    onPathWithinLimit: ({ context, event }, params: { max: number }) =>
      context.path.includes(event.type.slice(5) as NodeId) && hasVisitsLeft(context.visits, event.type.slice(5) as NodeId, params.max),
    usedUp: ({ context }, params: { nodes: readonly UsedUp[] }) =>
      params.nodes.some(({ node, max }) => !hasVisitsLeft(context.visits, node, max)),
    onPathUsedUp: ({ context }, params: { nodes: readonly UsedUp[] }) =>
      params.nodes.some(({ node, max }) => context.path.includes(node) && !hasVisitsLeft(context.visits, node, max)),
  },
  actions: {
    enter: assign({
      path: ({ context, event }) => enterPath(context.path, event.type.slice(5) as NodeId, 'INTAKE'),
      visits: ({ context, event }) => countVisit(context.visits, event.type.slice(5) as NodeId, ['VERIFY', 'RESET_PW']),
    }),
  },
}).createMachine({
  id: 'it_helpdesk',
  initial: 'INTAKE',
  context: { path: ['INTAKE'], visits: {} },
  on: {
    'GOTO.INTAKE': { target: '.INTAKE', actions: 'enter' },
    'GOTO.TRIAGE': { target: '.TRIAGE', guard: 'onPath', actions: 'enter' },
  },
  states: {
    INTAKE: {
      description: 'Open a ticket for the sign-in problem',
      meta: { type: 'round' },
      on: { 'GOTO.IDENTIFY': { target: 'IDENTIFY', actions: 'enter' } },
    },
    IDENTIFY: {
      description: 'Find employee in directory',
      meta: { type: 'cylinder' },
      on: {
        'GOTO.VERIFY': { target: 'VERIFY', guard: { type: 'withinLimit', params: { max: 3 } }, actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no directory match', actions: 'enter' },
        'GOTO.SECURITY_HOLD': {
          target: 'SECURITY_HOLD',
          guard: { type: 'usedUp', params: { nodes: [{ node: 'VERIFY', max: 3 }] } },
          actions: 'enter',
        },
      },
    },
    VERIFY: {
      description: 'Verify identity with a one-time code',
      meta: { type: 'subroutine' },
      on: { 'GOTO.IS_VERIFIED': { target: 'IS_VERIFIED', actions: 'enter' } },
    },
    HANDOFF: {
      description: 'Hand off to the Service Desk',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    IS_VERIFIED: {
      description: 'Identity verified?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.TRIAGE': { target: 'TRIAGE', description: 'yes', actions: 'enter' },
        'GOTO.VERIFY': {
          target: 'VERIFY',
          description: 'no: wrong code, attempts left',
          guard: { type: 'withinLimit', params: { max: 3 } },
          actions: 'enter',
        },
        'GOTO.SECURITY_HOLD': { target: 'SECURITY_HOLD', description: 'no: third wrong code', actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no: no access to recovery contact', actions: 'enter' },
      },
    },
    TRIAGE: {
      description: 'Request type?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CHECK_ACCT': {
          target: 'CHECK_ACCT',
          description: 'password forgotten, expired or locked out',
          actions: 'enter',
        },
        'GOTO.MFA_RESET': { target: 'MFA_RESET', description: 'lost or new MFA device', actions: 'enter' },
        'GOTO.DENY_OTHER': {
          target: 'DENY_OTHER',
          description: 'request for another person\'s account',
          actions: 'enter',
        },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'any other IT issue', actions: 'enter' },
      },
    },
    SECURITY_HOLD: {
      description: 'Flag account to Security',
      meta: { type: 'asymmetric' },
      tags: ['terminal'],
    },
    CHECK_ACCT: {
      description: 'Check account state',
      meta: { type: 'hexagon' },
      on: { 'GOTO.ACCT_STATE': { target: 'ACCT_STATE', actions: 'enter' } },
    },
    MFA_RESET: {
      description: 'Reset MFA enrollment',
      meta: { type: 'subroutine' },
      on: {
        'GOTO.MFA_ENROLL': { target: 'MFA_ENROLL', actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'reset fails', meta: { style: 'dotted' }, actions: 'enter' },
      },
    },
    DENY_OTHER: {
      description: 'Refuse: only the owner can ask',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    ACCT_STATE: {
      description: 'Account state?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.UNLOCK': { target: 'UNLOCK', description: 'locked', actions: 'enter' },
        'GOTO.RESET_PW': {
          target: 'RESET_PW',
          description: 'active: password forgotten or expired',
          guard: { type: 'withinLimit', params: { max: 2 } },
          actions: 'enter',
        },
        'GOTO.DENY_DISABLED': { target: 'DENY_DISABLED', description: 'disabled', actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'admin or privileged account', actions: 'enter' },
      },
    },
    UNLOCK: {
      description: 'Unlock account',
      meta: { type: 'round' },
      on: {
        'GOTO.KNOWS_PW': { target: 'KNOWS_PW', actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'unlock fails', meta: { style: 'dotted' }, actions: 'enter' },
      },
    },
    RESET_PW: {
      description: 'Send password reset link',
      meta: { type: 'parallelogram' },
      on: { 'GOTO.GUIDE': { target: 'GUIDE', actions: 'enter' } },
    },
    DENY_DISABLED: {
      description: 'Refuse: account is disabled',
      meta: { type: 'stadium' },
      tags: ['terminal'],
    },
    KNOWS_PW: {
      description: 'Employee knows the password?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN', description: 'yes', actions: 'enter' },
        'GOTO.RESET_PW': {
          target: 'RESET_PW',
          description: 'no',
          guard: { type: 'withinLimit', params: { max: 2 } },
          actions: 'enter',
        },
        'GOTO.HANDOFF': {
          target: 'HANDOFF',
          guard: { type: 'usedUp', params: { nodes: [{ node: 'RESET_PW', max: 2 }] } },
          actions: 'enter',
        },
      },
    },
    CAN_SIGN_IN: {
      description: 'Can the employee sign in now?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CLOSE_TICKET': { target: 'CLOSE_TICKET', description: 'yes', actions: 'enter' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no', actions: 'enter' },
      },
    },
    GUIDE: {
      description: 'Guide the first sign-in',
      meta: { type: 'rectangle' },
      on: {
        'GOTO.RESET_PW': {
          target: 'RESET_PW',
          description: 'link expired or not received',
          meta: { style: 'dotted' },
          guard: { type: 'withinLimit', params: { max: 2 } },
          actions: 'enter',
        },
        'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN', actions: 'enter' },
        'GOTO.HANDOFF': {
          target: 'HANDOFF',
          guard: { type: 'usedUp', params: { nodes: [{ node: 'RESET_PW', max: 2 }] } },
          actions: 'enter',
        },
      },
    },
    MFA_ENROLL: {
      description: 'Guide MFA re-enrollment',
      meta: { type: 'rectangle' },
      on: { 'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN', actions: 'enter' } },
    },
    CLOSE_TICKET: {
      description: 'Close the ticket as resolved',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DONE': { target: 'DONE', meta: { style: 'thick' }, actions: 'enter' } },
    },
    DONE: {
      description: 'Resolved',
      meta: { type: 'circle' },
      tags: ['terminal'],
    },
  },
});
