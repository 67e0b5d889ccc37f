// The printer keeps initializers out of ts-morph's writer: they land in the file exactly as planned, whatever
// they or the rest of the file spell.
import { describe, expect, it } from 'vitest';
import { constExpression } from '../../../generator/emit/declarations.js';
import { emitProject } from '../../../generator/emit/emit-project.js';
import { fillSlots, slotName, takeSlots } from '../../../generator/emit/initializer-slots.js';
import { printFile } from '../../../generator/emit/printer.js';
import { evaluateModule } from './evaluate-module.js';
import { buildModel } from './model-fixture.js';

const TABLE = "{\n  a: 'x',\n  b: [1, 2],\n}";

describe('initializer slots', () => {
  const structure = {
    statements: [
      'import x from "x";',
      constExpression({ name: 'A', doc: 'Doc.', initializer: TABLE }),
      constExpression({ name: 'B', doc: 'Doc.', type: 'string', initializer: "'b'" }),
    ],
  };

  it('swaps each top-level initializer for a placeholder, leaving the input and other statements alone', () => {
    const { skeleton, initializers } = takeSlots(structure, 3);
    expect(initializers).toEqual([TABLE, "'b'"]);
    const declarations = (skeleton.statements as { declarations?: { initializer: string }[] }[]).map(
      (s) => s.declarations?.[0]?.initializer,
    );
    expect(declarations).toEqual([undefined, slotName(3, 0), slotName(3, 1)]);
    expect((structure.statements[1] as { declarations: { initializer: string }[] }).declarations[0]?.initializer).toBe(TABLE);
  });

  it('puts the initializers back in order, and refuses a text that spells a placeholder itself', () => {
    const text = `a ${slotName(0, 0)}; b ${slotName(0, 1)};`;
    expect(fillSlots(text, 0, ['1', '2'])).toBe('a 1; b 2;');
    expect(fillSlots(`// ${slotName(0, 0)}\n${text}`, 0, ['1', '2'])).toBeNull();
    expect(fillSlots(`a ${slotName(0, 1)}; b ${slotName(0, 0)};`, 0, ['1', '2'])).toBeNull();
    expect(fillSlots(text, 0, ['1', '2', '3'])).toBeNull();
    expect(fillSlots(text, 1, ['1', '2'])).toBeNull();
  });
});

describe('printFile', () => {
  it('writes initializers as planned (no hanging indent), other text through ts-morph', () => {
    const file = printFile({
      path: 'x.ts',
      structure: { leadingTrivia: '// header\n\n', statements: [constExpression({ name: 'A', doc: 'Doc.', initializer: TABLE })] },
    });
    expect(file).toEqual({ path: 'x.ts', content: `// header\n\n/** Doc. */\nexport const A = ${TABLE};\n` });
  });

  it('prints again with other placeholders when the file spells one, and never rescans an initializer', () => {
    const file = printFile({
      path: 'x.ts',
      structure: {
        leadingTrivia: `// from ${slotName(0, 0)}.md\n\n`,
        statements: [
          constExpression({ name: 'A', doc: 'Doc.', initializer: TABLE }),
          constExpression({ name: 'B', doc: 'Doc.', type: 'string', initializer: `'${slotName(1, 0)}'` }),
        ],
      },
    });
    expect(file.content).toBe(
      `// from ${slotName(0, 0)}.md\n\n/** Doc. */\nexport const A = ${TABLE};\n\n` +
        `/** Doc. */\nexport const B: string = '${slotName(1, 0)}';\n`,
    );
  });

  it('emits a SOP whose file name and text spell placeholders', async () => {
    const file = `sops/${slotName(0, 0)}.md`;
    const input = buildModel({
      agent: 'spelled',
      file,
      edges: ['START --> B'],
      prompts: { B: { prompt: `Say ${slotName(0, 1)} and ${slotName(1, 3)}.` } },
    });
    const files = emitProject([input]);
    const graph = files.find((f) => f.path === 'spelled/graph.ts')?.content ?? '';
    const ids = files.find((f) => f.path === 'spelled/ids.ts')?.content ?? '';
    expect(graph.split('\n')[0]).toContain(file);
    const module = await evaluateModule(graph, { 'ids.js': ids });
    expect(module['SOURCE_FILE']).toBe(file);
    expect(module['PROMPTS']).toEqual({ B: { prompt: `Say ${slotName(0, 1)} and ${slotName(1, 3)}.`, tools: [], examples: [] } });
  });
});
