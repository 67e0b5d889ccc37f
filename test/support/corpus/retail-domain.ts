/**
 * The retail domain server's answers, recorded in-process: a fresh copy of `examples/retail-tools`'s seed database
 * and its tools' own code (`RETAIL_TOOLS`), answering each call exactly as the server does (`retail-server.ts`): the
 * structured content, the same JSON as text, and `isError` with `{ error }` for a refusal, which changes nothing.
 * No process, no protocol: a corpus records thousands of calls in milliseconds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedResult } from '../../../contract/run/call-results.js';
import type { RetailData } from '../../../examples/retail-tools/data-model.js';
import { openStore, type RetailStore, serializeDatabase } from '../../../examples/retail-tools/retail-db.js';
import { RETAIL_TOOLS, type RetailTool } from '../../../examples/retail-tools/tool-catalog.js';

export interface RetailDomain {
  /** Answers a call as the server would, applying a change to this copy of the database. */
  call(tool: string, args: Readonly<Record<string, unknown>>): RecordedResult;
  /** The database now (read it, never change it). */
  data(): RetailData;
  /** The database as the server's file format: equal texts, equal databases. */
  snapshot(): string;
}

const TOOLS: ReadonlyMap<string, RetailTool> = new Map(RETAIL_TOOLS.map((tool) => [tool.name, tool]));

/** The names of the server's tools (what a corpus may call on it). */
export const RETAIL_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.keys());

let seedText: string | undefined;

/** The committed seed database's text (`examples/retail-tools/seed.json`), from the source tree or from dist/. */
export function retailSeedText(): string {
  if (seedText !== undefined) return seedText;
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [4, 5].map((up) => join(here, ...Array<string>(up - 1).fill('..'), 'examples', 'retail-tools', 'seed.json'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`seed.json not found (looked at ${candidates.join(', ')})`);
  seedText = readFileSync(found, 'utf8');
  return seedText;
}

/** A fresh in-memory copy of the seed database behind the retail tools. */
export function openRetailDomain(): RetailDomain {
  const opened = openStore(retailSeedText());
  if (!opened.ok) throw new Error(opened.error);
  const store: RetailStore = opened.value;
  return {
    call(name, args) {
      const tool = TOOLS.get(name);
      if (tool === undefined) throw new Error(`the retail server has no tool ${name}`);
      // The SDK checks the arguments against the input schema before the tool runs; a corpus makes only calls it accepts.
      const parsed = tool.inputSchema.safeParse(args);
      if (!parsed.success) throw new Error(`${name}: arguments the server would refuse: ${parsed.error.message}`);
      const outcome =
        tool.kind === 'write' ? store.change((draft) => tool.run(draft, parsed.data)) : tool.run(store.current(), parsed.data);
      const text = JSON.stringify(outcome.ok ? outcome.value : { error: outcome.error });
      // A copy, so later changes to the database never reach an answer already recorded.
      const structured = JSON.parse(text) as unknown;
      return outcome.ok ? { structured, text } : { structured, text, isError: true };
    },
    data: () => store.current(),
    snapshot: () => serializeDatabase(store.current()),
  };
}
