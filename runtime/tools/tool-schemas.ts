/**
 * Renders a tool's zod schema as the JSON Schema `tools/list` publishes. Draft-07, as the SDK does, because
 * the SDK client validates `structuredContent` with Ajv's draft-07 default. MCP wants `type: "object"` at the
 * top of both schemas; an output that is a union of object shapes (answer | error) gets it added beside its
 * `anyOf`, which keeps the schema valid and exact.
 */
import { z } from 'zod';

export type JsonSchemaObject = { type: 'object'; [keyword: string]: unknown };

export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  return { ...json, type: 'object' };
}

/** Zod issues as one line an agent can act on: `todos[0].content: content must not be empty; …`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path
        .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`))
        .join('');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
