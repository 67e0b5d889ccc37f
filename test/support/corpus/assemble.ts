/**
 * A plan as the acts of its conversation: the user's request, authentication along the walk to the hub (a lookup
 * at AUTH; a failed one retried), then each intent along its walk (taken from the golden paths), back through the
 * hub between intents, and the goodbye. Moves and todo lists are acts too; a conversation in the inferred mode
 * leaves them out when it is recorded.
 *
 * Several intents the user states at once are written down with `todo` at the start (each with its completion
 * node) and ticked off as each is done; an intent that comes up later (a question first, a change decided after) is
 * added when it comes up.
 */
import type { CompiledSop } from '../../../contract/compiled-sop.js';
import { random } from '../../../fuzz/random.js';
import { type Act, placeSteps, type Step, type Todo } from './acts.js';
import { requestOf, stepsOf, walkKeyOf } from './intents.js';
import type { ConversationSpec } from './plan.js';
import type { Customer } from './seed-facts.js';
import { HUB, type Walks } from './walks.js';

export function assemble(spec: ConversationSpec, sop: CompiledSop, walks: Walks): Act[] {
  const { customer, intents } = spec;
  const voice = random(spec.voice);
  const upfront = spec.pattern === 'intents';
  const stated = upfront ? intents : intents.slice(0, 1);
  const acts: Act[] = [{ act: 'user', text: `Hi! I'd like to ${joined(stated.map(requestOf))}.` }];
  const terminals = intents.map((intent) => walkKeyOf(intent).terminal);
  const todos = (done: number, known: number): Todo[] =>
    intents.slice(0, known).map((intent, i) => ({
      content: capitalised(requestOf(intent)),
      status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      completion_node: terminals[i]!,
    }));
  if (upfront && intents.length > 1) acts.push({ act: 'todo', todos: todos(0, intents.length) });
  acts.push(...placeSteps(sop, walks.opening, authSteps(spec), []));
  for (const [index, intent] of intents.entries()) {
    if (index > 0) {
      if (!upfront) {
        acts.push(
          { act: 'say', text: 'Is there anything else I can help you with?' },
          { act: 'user', text: `Yes: I'd also like to ${requestOf(intent)}.` },
        );
        acts.push({ act: 'todo', todos: todos(index, index + 1) });
      } else acts.push({ act: 'say', text: `Now your next request: to ${requestOf(intent)}.` });
      acts.push({ act: 'move', node: HUB, intent: index });
    }
    const { steps, closing } = stepsOf(intent, customer, voice);
    acts.push(...placeSteps(sop, walks.after(walkKeyOf(intent)), steps, closing, index));
    if (upfront && intents.length > 1) acts.push({ act: 'todo', todos: todos(index + 1, intents.length) });
  }
  if (intents.at(-1)?.kind !== 'transfer')
    acts.push({ act: 'say', text: 'Is there anything else I can help you with?' }, { act: 'user', text: "No, that's all. Thank you!" });
  return acts;
}

/** The lookup that authenticates the customer, and a failed one before it retried the other way. */
function authSteps(spec: ConversationSpec): Step[] {
  const { customer, auth } = spec;
  const other = auth.via === 'email' ? 'name_zip' : 'email';
  const ask = { say: 'I can help with that. First I need to verify your identity: the email on your account, or your name and zip code?' };
  const welcome = { say: `Thank you, ${customer.firstName}: you are verified.` };
  const lookup = (via: 'email' | 'name_zip', wrong: boolean): NonNullable<Step['call']> => ({
    tool: via === 'email' ? 'find_user_id_by_email' : 'find_user_id_by_name_zip',
    args: detailsOf(customer, via, wrong),
    role: 'lookup',
  });
  if (auth.failFirst !== true)
    return [{ before: [ask, { user: detailsText(customer, auth.via, false) }], call: lookup(auth.via, false), after: [welcome] }];
  return [
    { before: [ask, { user: detailsText(customer, auth.via, true) }], call: lookup(auth.via, true) },
    {
      before: [
        {
          say: `I could not find an account with those details. Could you give me ${other === 'email' ? 'your email' : 'your name and zip code'} instead?`,
          role: 'retry-talk',
        },
        { user: detailsText(customer, other, false), role: 'retry-talk' },
      ],
      call: lookup(other, false),
      after: [welcome],
    },
  ];
}

/** A lookup's arguments: the customer's details, or with a typo (two letters of the email swapped, a zip digit off). */
export function detailsOf(customer: Customer, via: 'email' | 'name_zip', wrong: boolean): Record<string, string> {
  if (via === 'email') return { email: wrong ? misspelt(customer.email) : customer.email };
  const zip = wrong ? `${customer.zip.slice(0, -1)}${(Number(customer.zip.at(-1)) + 1) % 10}` : customer.zip;
  return { first_name: customer.firstName, last_name: customer.lastName, zip };
}

function detailsText(customer: Customer, via: 'email' | 'name_zip', wrong: boolean): string {
  const details = detailsOf(customer, via, wrong);
  return via === 'email' ? `It's ${details.email}.` : `${details.first_name} ${details.last_name}, zip code ${details.zip}.`;
}

function misspelt(email: string): string {
  const at = email.indexOf('@');
  for (let i = at - 2; i > 0; i--) {
    if (email[i] !== email[i + 1]) return `${email.slice(0, i)}${email[i + 1]}${email[i]}${email.slice(i + 2)}`;
  }
  return `x${email}`;
}

function joined(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
