// Any string the model holds comes back exactly from the generated code, through TypeScript's own parser.
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { inlineLiteral, propertyName, stringLiteral } from '../../../generator/emit/literal.js';
import { evaluateModule, removeEvaluatedModules } from './evaluate-module.js';
import { NASTY_STRINGS, nastyFixture } from './model-fixture.js';

afterAll(removeEvaluatedModules);

const EXTRA = ['\ud800 lone high', 'lone low \udc00', '\u0085 NEL \u00a0 nbsp', 'x'.repeat(300)];

describe('stringLiteral', () => {
  it.each([...NASTY_STRINGS, ...EXTRA].map((s) => [JSON.stringify(s), s]))('round-trips %s', async (_, value) => {
    const literal = stringLiteral(value);
    const parsed = ts.createSourceFile('x.ts', `x = ${literal};`, ts.ScriptTarget.ES2022);
    const statement = parsed.statements[0];
    expect(statement && ts.isExpressionStatement(statement)).toBe(true);
    const module = await evaluateModule(`export const value = ${literal};`);
    expect(module['value']).toBe(value);
  });

  it('keeps the literal on one line and free of invisible or line-breaking characters', () => {
    for (const value of [...NASTY_STRINGS, ...EXTRA]) {
      const literal = stringLiteral(value);
      expect(literal).toMatch(/^'.*'$/s);
      expect(literal).not.toMatch(/[\n\r\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\u0000]/);
    }
  });

  it('writes readable escapes', () => {
    expect(stringLiteral(`it's`)).toBe(`'it\\'s'`);
    expect(stringLiteral('a\nb')).toBe(`'a\\nb'`);
    expect(stringLiteral('\u2028')).toBe(`'\\u2028'`);
    expect(stringLiteral('ends \\')).toBe(`'ends \\u005c'`);
    expect(stringLiteral('👩‍💻')).toBe(`'👩‍💻'`);
  });
});

describe('propertyName', () => {
  it('quotes what is not an identifier and computes __proto__', () => {
    expect(propertyName('START')).toBe('START');
    expect(propertyName('node-with-dash')).toBe(`'node-with-dash'`);
    expect(propertyName('1st')).toBe(`'1st'`);
    expect(propertyName('__proto__')).toBe(`['__proto__']`);
  });

  it('defines an own __proto__ property instead of setting the prototype', async () => {
    const value = Object.fromEntries([
      ['__proto__', 1],
      ['a', 2],
    ]);
    const module = await evaluateModule(`export const table = ${inlineLiteral(value)};`);
    const table = module['table'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(table)).toBe(Object.prototype);
    expect(Object.keys(table)).toEqual(['__proto__', 'a']);
  });
});

describe('a whole generated module', () => {
  it('returns every string of a nasty model exactly', async () => {
    const { model } = nastyFixture();
    const files = emitProject([nastyFixture()]);
    const graph = files.find((f) => f.path === 'nasty_strings/graph.ts');
    const ids = files.find((f) => f.path === 'nasty_strings/ids.ts');
    const machine = files.find((f) => f.path === 'nasty_strings/machine.ts');
    if (!graph || !ids || !machine) throw new Error('missing output');
    const data = await evaluateModule(graph.content, { 'ids.js': ids.content });

    expect(data['SYSTEM_PROMPT']).toBe(model.systemPrompt);
    expect(data['SYSTEM_PROMPT_SECTIONS']).toEqual(NASTY_STRINGS);
    expect(data['FLOWCHART']).toBe(model.flowchart);
    expect(data['SOURCE_FILE']).toBe('sops/nasty strings.md');
    expect(data['AGENT_META']).toEqual({
      agent: 'nasty_strings',
      version: model.version,
      description: model.description,
      model: model.model,
      mcpServers: model.mcpServers,
    });
    expect(Object.is((data['AGENT_META'] as { model: { 'has space': unknown[] } }).model['has space'][2], -0)).toBe(true);
    const nodes = data['NODES'] as Record<string, { description: string }>;
    expect(model.nodes.map((n) => nodes[n.id]?.description)).toEqual(model.nodes.map((n) => n.description));
    const edges = data['EDGES'] as Record<string, { condition: string | null }[]>;
    expect(
      Object.values(edges)
        .flat()
        .map((e) => e.condition),
    ).toEqual(model.edges.map((e) => e.condition));
    const prompts = data['PROMPTS'] as Record<string, { prompt: string; examples: unknown[] }>;
    for (const p of model.prompts) {
      expect(prompts[p.nodeId]?.prompt).toBe(p.prompt);
      expect(prompts[p.nodeId]?.examples).toEqual(p.examples);
    }
    // The header names the source without letting it break the comment.
    expect(graph.content.split('\n')[0]).toBe(
      '// @generated from sops/nasty strings.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops',
    );
    // The machine module is valid TypeScript whose labels survive too.
    const { outputText } = ts.transpileModule(machine.content, { compilerOptions: { module: ts.ModuleKind.ESNext } });
    expect(outputText).toContain(stringLiteral(model.nodes[1]?.description ?? ''));
  });
});
