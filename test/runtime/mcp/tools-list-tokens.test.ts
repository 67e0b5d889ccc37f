/**
 * What the `inspect` tool costs in the `tools/list` answer, in model tokens (o200k_base, gpt-tokenizer): the
 * whole answer as sent, and the part models are usually shown (name, description, input schema). The default
 * server lists `where` alone; the other views are opt-in (`sop serve --inspect`). These bounds keep the default
 * lean: a change that makes the default list or a view dearer fails here and has to be argued for.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/server';
import { INSPECT_VIEWS, type InspectViewName } from '../../../runtime/tools/inspect/inspect-view.js';
import { fixtureService } from '../helpers/mcp-client.js';

async function cost(views: readonly InspectViewName[]): Promise<{ full: number; visible: number }> {
  const service = fixtureService({ inspectViews: views });
  const tools: readonly Tool[] = service.tools();
  await service.close();
  return {
    full: countTokens(JSON.stringify({ tools })),
    visible: countTokens(
      JSON.stringify(tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }))),
    ),
  };
}

describe('tokens inspect adds to tools/list', () => {
  it('keeps the default (where alone) lean, and every further view cheap', async () => {
    const base = await cost([]);
    const rows: string[] = [`no inspect: ${base.full} tokens (${base.visible} model-visible)`];
    const where = await cost(['where']);
    rows.push(`+ where: +${where.full - base.full} (+${where.visible - base.visible})`);
    expect(where.visible - base.visible).toBeLessThanOrEqual(160);
    // 700, not 650: `where` says where a run inside a sub-flow is on its call stack (`stack`, 41 tokens of output
    // schema, none of them model-visible), as the issue of sub-flows asks every answer about a run's position to,
    // and an edge decided by data says its condition (`when`, 5 tokens of output schema).
    expect(where.full - base.full).toBeLessThanOrEqual(700);

    let previous = where;
    const enabled: InspectViewName[] = ['where'];
    for (const view of INSPECT_VIEWS.filter((name) => name !== 'where')) {
      enabled.push(view);
      const next = await cost(enabled);
      rows.push(`+ ${view}: +${next.full - previous.full} (+${next.visible - previous.visible})`);
      expect(next.visible - previous.visible, view).toBeLessThanOrEqual(100);
      previous = next;
    }
    rows.push(`all views: +${previous.full - base.full} (+${previous.visible - base.visible})`);
    console.info(rows.join('\n'));
    expect(previous.visible - base.visible).toBeLessThanOrEqual(450);
  });
});
