/**
 * The documentation the language server shows for frontmatter keys covers exactly the keys the compiler's schema
 * accepts, at every level it documents: a key added to the schema without its paragraph fails here.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { FRONTMATTER_KEYS, NESTED_KEYS, NODE_KEYS } from '../../../authoring/lsp/frontmatter-docs.js';
import { frontmatterSchema } from '../../../generator/parse/frontmatter.js';

/** The object schema inside optional, record and preprocess wrappers. */
function objectIn(schema: z.ZodType): z.ZodObject {
  let s = schema as unknown as { _zod: { def: Record<string, unknown> }; shape?: unknown };
  for (let i = 0; i < 10 && s.shape === undefined; i++) {
    const def = s._zod.def;
    s = (def['innerType'] ?? def['valueType'] ?? def['out'] ?? def['schema']) as typeof s;
  }
  return s as unknown as z.ZodObject;
}

describe('frontmatter key docs', () => {
  it('document every key of the schema, and no other', () => {
    const shape = frontmatterSchema.shape;
    expect([...FRONTMATTER_KEYS.keys()].sort()).toEqual(Object.keys(shape).sort());
    expect([...NESTED_KEYS.get('token_budget')!.keys()].sort()).toEqual(Object.keys(objectIn(shape.token_budget).shape).sort());
    const policy = objectIn(shape.policies);
    expect([...NESTED_KEYS.get('policy')!.keys()].sort()).toEqual(Object.keys(policy.shape).sort());
    expect([...NESTED_KEYS.get('selector')!.keys()].sort()).toEqual(
      Object.keys(objectIn(policy.shape.every_path_to as z.ZodType).shape).sort(),
    );
    const server = (shape.mcp_servers as unknown as { _zod: { def: { innerType: { _zod: { def: { element: z.ZodType } } } } } })._zod.def
      .innerType._zod.def.element;
    expect([...NESTED_KEYS.get('mcp_server')!.keys()].sort()).toEqual(Object.keys(objectIn(server).shape).sort());
    expect([...NODE_KEYS.keys()].sort()).toEqual([
      'escalate_to',
      'evidence',
      'examples',
      'exits',
      'fork',
      'join',
      'max_visits',
      'prompt',
      'subflow',
      'tools',
      'when',
    ]);
  });
});
