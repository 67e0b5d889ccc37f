// @generated from sops/it_helpdesk_password_reset.md (sha256:ee6262b21639) by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

import { setup } from 'xstate';

/** Events of the `it_helpdesk` machine: `GOTO.<NodeId>` for every node some edge leads to. */
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
 * The `it_helpdesk` SOP as an XState machine: one flat state per node (flowchart order), a `GOTO.<NodeId>`
 * transition along each edge, terminal nodes final.
 */
export const itHelpdeskMachine = setup({ types: { events: {} as ItHelpdeskEvent } }).createMachine({
  id: 'it_helpdesk',
  initial: 'INTAKE',
  states: {
    INTAKE: {
      description: 'Open a ticket for the sign-in problem',
      meta: { type: 'round' },
      on: { 'GOTO.IDENTIFY': { target: 'IDENTIFY' } },
    },
    IDENTIFY: {
      description: 'Find employee in directory',
      meta: { type: 'cylinder' },
      on: {
        'GOTO.VERIFY': { target: 'VERIFY' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no directory match' },
      },
    },
    VERIFY: {
      description: 'Verify identity with a one-time code',
      meta: { type: 'subroutine' },
      on: { 'GOTO.IS_VERIFIED': { target: 'IS_VERIFIED' } },
    },
    HANDOFF: {
      description: 'Hand off to the Service Desk',
      meta: { type: 'stadium' },
      type: 'final',
    },
    IS_VERIFIED: {
      description: 'Identity verified?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.TRIAGE': { target: 'TRIAGE', description: 'yes' },
        'GOTO.VERIFY': { target: 'VERIFY', description: 'no: wrong code, attempts left' },
        'GOTO.SECURITY_HOLD': { target: 'SECURITY_HOLD', description: 'no: third wrong code' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no: no access to recovery contact' },
      },
    },
    TRIAGE: {
      description: 'Request type?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CHECK_ACCT': { target: 'CHECK_ACCT', description: 'password forgotten, expired or locked out' },
        'GOTO.MFA_RESET': { target: 'MFA_RESET', description: 'lost or new MFA device' },
        'GOTO.DENY_OTHER': { target: 'DENY_OTHER', description: 'request for another person\'s account' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'any other IT issue' },
      },
    },
    SECURITY_HOLD: {
      description: 'Flag account to Security',
      meta: { type: 'asymmetric' },
      type: 'final',
    },
    CHECK_ACCT: {
      description: 'Check account state',
      meta: { type: 'hexagon' },
      on: { 'GOTO.ACCT_STATE': { target: 'ACCT_STATE' } },
    },
    MFA_RESET: {
      description: 'Reset MFA enrollment',
      meta: { type: 'subroutine' },
      on: {
        'GOTO.MFA_ENROLL': { target: 'MFA_ENROLL' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'reset fails', meta: { style: 'dotted' } },
      },
    },
    DENY_OTHER: {
      description: 'Refuse: only the owner can ask',
      meta: { type: 'stadium' },
      type: 'final',
    },
    ACCT_STATE: {
      description: 'Account state?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.UNLOCK': { target: 'UNLOCK', description: 'locked' },
        'GOTO.RESET_PW': { target: 'RESET_PW', description: 'active: password forgotten or expired' },
        'GOTO.DENY_DISABLED': { target: 'DENY_DISABLED', description: 'disabled' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'admin or privileged account' },
      },
    },
    UNLOCK: {
      description: 'Unlock account',
      meta: { type: 'round' },
      on: {
        'GOTO.KNOWS_PW': { target: 'KNOWS_PW' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'unlock fails', meta: { style: 'dotted' } },
      },
    },
    RESET_PW: {
      description: 'Send password reset link',
      meta: { type: 'parallelogram' },
      on: { 'GOTO.GUIDE': { target: 'GUIDE' } },
    },
    DENY_DISABLED: {
      description: 'Refuse: account is disabled',
      meta: { type: 'stadium' },
      type: 'final',
    },
    KNOWS_PW: {
      description: 'Employee knows the password?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN', description: 'yes' },
        'GOTO.RESET_PW': { target: 'RESET_PW', description: 'no' },
      },
    },
    CAN_SIGN_IN: {
      description: 'Can the employee sign in now?',
      meta: { type: 'rhombus' },
      on: {
        'GOTO.CLOSE_TICKET': { target: 'CLOSE_TICKET', description: 'yes' },
        'GOTO.HANDOFF': { target: 'HANDOFF', description: 'no' },
      },
    },
    GUIDE: {
      description: 'Guide the first sign-in',
      meta: { type: 'rectangle' },
      on: {
        'GOTO.RESET_PW': { target: 'RESET_PW', description: 'link expired or not received', meta: { style: 'dotted' } },
        'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN' },
      },
    },
    MFA_ENROLL: {
      description: 'Guide MFA re-enrollment',
      meta: { type: 'rectangle' },
      on: { 'GOTO.CAN_SIGN_IN': { target: 'CAN_SIGN_IN' } },
    },
    CLOSE_TICKET: {
      description: 'Close the ticket as resolved',
      meta: { type: 'rectangle' },
      on: { 'GOTO.DONE': { target: 'DONE', meta: { style: 'thick' } } },
    },
    DONE: {
      description: 'Resolved',
      meta: { type: 'circle' },
      type: 'final',
    },
  },
});
