/**
 * The module specifier through which generated files import the runtime's data types (`CompiledSop`, …).
 * Given relative to the out dir; agent modules sit one folder deeper, so they get one more `../`.
 */
export const DEFAULT_RUNTIME_TYPES = '../runtime/compiled-sop.js';

export interface RuntimeTypesImport {
  readonly fromOutDir: string;
  readonly fromAgentFolder: string;
}

export function runtimeTypesImport(fromOutDir: string): RuntimeTypesImport {
  const relative = fromOutDir.startsWith('./') || fromOutDir.startsWith('../');
  const fromAgentFolder = !relative ? fromOutDir : fromOutDir.startsWith('./') ? `../${fromOutDir.slice(2)}` : `../${fromOutDir}`;
  return { fromOutDir, fromAgentFolder };
}
