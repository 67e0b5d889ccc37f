/**
 * The fields of a read's answer a draft's data rules may be made of (`answer-fields.ts`): never one that identifies
 * the entity (named as an identifier, or echoing a value the call named), and each value a change followed with
 * the entities it was seen on.
 */
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../contract/run/call-results.js';
import { AnswerFields, identifier } from '../../../analysis/discover/answer-fields.js';
import type { ToolCallEvent } from '../../../analysis/replay/conversation.js';
import { toolKind } from '../../../analysis/discover/tool-kinds.js';

function follow(fields: AnswerFields, answers: ReturnType<AnswerFields['conversation']>, tool: string, args: object, answer: object) {
  const event: ToolCallEvent = {
    kind: 'call',
    tool,
    args: args as Record<string, unknown>,
    place: { message: 0 },
    result: { text: JSON.stringify(answer) },
  };
  fields.follow(tool, toolKind(tool), event, readAnswer(event.result!), answers, 0);
}

describe('AnswerFields', () => {
  it('keeps no identifier of a read’s answer: by name, or a value the call named', () => {
    const fields = new AnswerFields();
    const answers = fields.conversation();
    follow(
      fields,
      answers,
      'get_order_details',
      { order_id: '#W1' },
      {
        order_id: '#W1',
        number: '#W1',
        id: 'o-1',
        userId: 'u1',
        item_ids: 'i1,i2',
        status: 'pending',
        paid: true,
        valid: 'yes',
      },
    );
    expect([...fields.values.get('get_order_details')!.keys()]).toEqual(['status', 'paid', 'valid']);
  });

  it('counts the entities each value a change followed was seen on', () => {
    const fields = new AnswerFields();
    for (const id of ['#W1', '#W1', '#W2']) {
      const answers = fields.conversation();
      follow(fields, answers, 'get_order_details', { order_id: id }, { order_id: id, status: 'pending' });
      follow(fields, answers, 'cancel_pending_order', { order_id: id }, { status: 'cancelled' });
    }
    const pending = fields.before.get('cancel_pending_order')!.get('get_order_details')!.fields.get('status')!.get('"pending"')!;
    expect(pending.calls).toEqual([3, 0]);
    expect([...pending.entities[0]]).toEqual(['order_id="#W1"', 'order_id="#W2"']);
  });

  it('tells identifiers by name', () => {
    expect(['id', 'ID', 'order_id', 'orderId', 'item_ids', 'itemIds', 'user-id', 'userID'].filter(identifier)).toHaveLength(8);
    expect(['paid', 'valid', 'status', 'idle', 'video', 'Lid', 'identity'].filter(identifier)).toEqual([]);
  });
});
