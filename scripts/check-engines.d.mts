/** Types of `check-engines.mjs` (a plain script: it runs before anything is built), for its tests. */
export declare const INSTALL_COMMAND: string;
export declare function missingEngines(root?: string, path?: string): string[];
export declare function missingMessage(missing: readonly string[]): string;
