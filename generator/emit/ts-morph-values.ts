/**
 * The values the emitter takes from ts-morph at run time: the structure printer and the two enums plans are
 * tagged with. ts-morph is CommonJS, and an ESM `import` of it makes Node first scan its ~1 MB bundle with
 * cjs-module-lexer for export names, ~100–170 ms of a cold build; `require` hands over the same exports object
 * without that scan. Types still come from `import type … from 'ts-morph'`; every emit module takes these
 * values from here, so ts-morph is loaded once, one way.
 */
import { createRequire } from 'node:module';

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph');

export const { printStructure, StructureKind, VariableDeclarationKind } = tsMorph;
