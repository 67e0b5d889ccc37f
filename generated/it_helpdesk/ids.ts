// @generated from sops/it_helpdesk_password_reset.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops

/** Node ids of the `it_helpdesk` SOP, in flowchart order. */
export const NODE_IDS = [
  'INTAKE',
  'IDENTIFY',
  'VERIFY',
  'HANDOFF',
  'IS_VERIFIED',
  'TRIAGE',
  'SECURITY_HOLD',
  'CHECK_ACCT',
  'MFA_RESET',
  'DENY_OTHER',
  'ACCT_STATE',
  'UNLOCK',
  'RESET_PW',
  'DENY_DISABLED',
  'KNOWS_PW',
  'CAN_SIGN_IN',
  'GUIDE',
  'MFA_ENROLL',
  'CLOSE_TICKET',
  'DONE',
] as const;

/** A node of the `it_helpdesk` SOP. */
export type NodeId = (typeof NODE_IDS)[number];

/** Decision (rhombus) nodes of the `it_helpdesk` SOP. */
export const DECISION_NODE_IDS = ['IS_VERIFIED', 'TRIAGE', 'ACCT_STATE', 'KNOWS_PW', 'CAN_SIGN_IN'] as const;

/** A decision node of the `it_helpdesk` SOP. */
export type DecisionNodeId = (typeof DECISION_NODE_IDS)[number];

/** Terminal nodes of the `it_helpdesk` SOP: no outgoing edges. */
export const TERMINAL_NODE_IDS = ['HANDOFF', 'SECURITY_HOLD', 'DENY_OTHER', 'DENY_DISABLED', 'DONE'] as const;

/** A terminal node of the `it_helpdesk` SOP. */
export type TerminalNodeId = (typeof TERMINAL_NODE_IDS)[number];

/** Domain tools of the `it_helpdesk` SOP: frontmatter `tools`, then any a node names beyond them. */
export const TOOL_NAMES = [
  'create_ticket',
  'update_ticket',
  'close_ticket',
  'search_directory',
  'send_verification_code',
  'check_verification_code',
  'get_account_status',
  'unlock_account',
  'send_password_reset_link',
  'reset_mfa_enrollment',
  'flag_security_incident',
  'transfer_to_service_desk',
] as const;

/** A domain tool of the `it_helpdesk` SOP. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** The successors of each node of the `it_helpdesk` SOP (`never` for terminal nodes). */
export interface Successors {
  readonly INTAKE: 'IDENTIFY';
  readonly IDENTIFY: 'VERIFY' | 'HANDOFF';
  readonly VERIFY: 'IS_VERIFIED';
  readonly HANDOFF: never;
  readonly IS_VERIFIED: 'TRIAGE' | 'VERIFY' | 'SECURITY_HOLD' | 'HANDOFF';
  readonly TRIAGE: 'CHECK_ACCT' | 'MFA_RESET' | 'DENY_OTHER' | 'HANDOFF';
  readonly SECURITY_HOLD: never;
  readonly CHECK_ACCT: 'ACCT_STATE';
  readonly MFA_RESET: 'MFA_ENROLL' | 'HANDOFF';
  readonly DENY_OTHER: never;
  readonly ACCT_STATE: 'UNLOCK' | 'RESET_PW' | 'DENY_DISABLED' | 'HANDOFF';
  readonly UNLOCK: 'KNOWS_PW' | 'HANDOFF';
  readonly RESET_PW: 'GUIDE';
  readonly DENY_DISABLED: never;
  readonly KNOWS_PW: 'CAN_SIGN_IN' | 'RESET_PW';
  readonly CAN_SIGN_IN: 'CLOSE_TICKET' | 'HANDOFF';
  readonly GUIDE: 'RESET_PW' | 'CAN_SIGN_IN';
  readonly MFA_ENROLL: 'CAN_SIGN_IN';
  readonly CLOSE_TICKET: 'DONE';
  readonly DONE: never;
}

/** The nodes an edge leads to from node `N`. */
export type SuccessorOf<N extends NodeId> = Successors[N];
