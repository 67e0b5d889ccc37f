import { describe, expect, it } from 'vitest';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE, type RunState } from '../../../runtime/store/run-store.js';
import { todoInput, writeTodos } from '../../../runtime/tools/todo.js';
import { SUPPORT_DESK } from '../../fixtures/runtime/agents.js';

const desk = prepareAgent(SUPPORT_DESK);
const loaded: RunState = { ...EMPTY_RUN_STATE, path: ['START'] };

describe('todo', () => {
  it('stores the full list and answers it with a count per status', () => {
    const outcome = writeTodos(desk, loaded, {
      todos: [
        { content: 'Change address', status: 'completed', completion_node: 'END_ADDR' },
        { content: 'Refund order 12', status: 'in_progress', completion_node: 'END_REFUND', note: 'customer is in a hurry' },
        { content: 'Ask about feedback', status: 'pending' },
      ],
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.answer).toEqual({
      todos: [
        { content: 'Change address', status: 'completed', completion_node: 'END_ADDR' },
        { content: 'Refund order 12', status: 'in_progress', completion_node: 'END_REFUND', note: 'customer is in a hurry' },
        { content: 'Ask about feedback', status: 'pending' },
      ],
      summary: { pending: 1, in_progress: 1, completed: 1 },
    });
    expect(outcome.state).toEqual({ ...loaded, todos: (outcome.answer as { todos: unknown }).todos });
  });

  it('clears the list with an empty one', () => {
    const withOne = writeTodos(desk, loaded, { todos: [{ content: 'x', status: 'pending' }] }).state;
    const outcome = writeTodos(desk, withOne, { todos: [] });
    expect(outcome.answer).toEqual({ todos: [], summary: { pending: 0, in_progress: 0, completed: 0 } });
    expect(outcome.state.todos).toEqual([]);
  });

  it('refuses a completion_node that is not a terminal node, listing them, and keeps the previous list', () => {
    const before = writeTodos(desk, loaded, { todos: [{ content: 'keep me', status: 'pending' }] }).state;
    const outcome = writeTodos(desk, before, {
      todos: [
        { content: 'a', status: 'pending', completion_node: 'END_ADDR' },
        { content: 'b', status: 'pending', completion_node: 'ROUTE' },
        { content: 'c', status: 'pending', completion_node: 'NOPE' },
      ],
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.answer).toEqual({
      error:
        'todos[1].completion_node: ROUTE is not a terminal node of support_desk; todos[2].completion_node: NOPE is not a terminal node of support_desk. ' +
        'Terminal nodes: [ESCALATE, DENY_REFUND, END_REFUND, END_ADDR]',
      terminal_nodes: ['ESCALATE', 'DENY_REFUND', 'END_REFUND', 'END_ADDR'],
    });
    expect(outcome.state).toBe(before);
  });
});

describe('todo input schema', () => {
  const item = { content: 'task', status: 'pending' };
  it.each([
    ['empty content', { todos: [{ ...item, content: '' }] }, 'content must not be empty'],
    ['blank content', { todos: [{ ...item, content: '   ' }] }, 'content must not be empty'],
    ['long content', { todos: [{ ...item, content: 'x'.repeat(501) }] }, 'content must be at most 500 characters'],
    ['long note', { todos: [{ ...item, note: 'x'.repeat(1001) }] }, 'note must be at most 1000 characters'],
    ['bad status', { todos: [{ ...item, status: 'done' }] }, 'status must be one of pending, in_progress, completed'],
    ['too many', { todos: Array.from({ length: 51 }, () => item) }, 'at most 50 todos'],
    ['unknown key', { todos: [{ ...item, completionNode: 'END_ADDR' }] }, 'Unrecognized key: "completionNode"'],
    ['no list', {}, 'expected array'],
  ])('rejects %s', (_name, input, message) => {
    const parsed = todoInput.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message).join('\n')).toContain(message);
  });

  it('accepts the limits exactly and trims content', () => {
    const parsed = todoInput.parse({
      todos: Array.from({ length: 50 }, () => ({ content: ` ${'x'.repeat(500)} `, status: 'completed', note: 'n'.repeat(1000) })),
    });
    expect(parsed.todos).toHaveLength(50);
    expect(parsed.todos[0]?.content).toBe('x'.repeat(500));
  });
});
