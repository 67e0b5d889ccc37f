/**
 * Makes the retail MCP server: one SDK `McpServer` per serving unit (a stdio connection, a 2025-era HTTP session,
 * or one 2026-07-28 HTTP request), all over the same store, fault plan and tool switch. The same factory serves
 * both protocol eras; the serving entries decide the era.
 *
 * Every tool answers `structuredContent` matching its output schema and the same JSON as text; a business-rule
 * refusal is an `isError` result whose structured content is `{ error }` (also allowed by the output schema), and
 * changes nothing.
 *
 * The tool switch is the list_changed fault: `get_store_hours` is registered on every server but enabled only while
 * the switch is on. Long-lived servers (stdio connections, 2025-era HTTP sessions) are tracked, so toggling enables
 * or disables the tool on each, and the SDK sends `notifications/tools/list_changed` on its connection (routed to
 * `subscriptions/listen` streams on a 2026-07-28 stdio connection). Per-request servers are not tracked: they are
 * built with the switch's current state, and the HTTP entry publishes the change to its listen streams.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type CallToolResult, McpServer, type RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { FaultPlan } from './faults.js';
import type { Outcome } from './outcome.js';
import type { RetailStore } from './retail-db.js';
import { RETAIL_TOOLS, type RetailTool, STORE_HOURS_TOOL } from './tool-catalog.js';

export const SERVER_INFO = { name: 'retail-tools', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Tools of an online retail store: find and read users, orders and products; cancel or modify pending orders; ' +
  'return or exchange items of delivered orders; change a default address. Order ids start with "#". ' +
  'Get an explicit "yes" from the user before any tool that changes data.';

/**
 * A refusal's structured content. Each tool's output schema is its answer or this, with `type: "object"` beside the
 * `anyOf` (MCP wants an object at the root; 2025-era SDK clients validate even an error's structured content).
 */
const REFUSAL = z.object({ error: z.string().describe('Why the call was refused and what to do instead; nothing changed.') });

export interface ToolSwitch {
  /** Whether the extra tool (`get_store_hours`) is offered now. */
  isOn(): boolean;
  /** Flips the switch, enabling or disabling the tool on every tracked server; answers the new state. */
  toggle(): boolean;
  /** Keeps `tool` in step with the switch until the returned function is called. */
  track(tool: RegisteredTool): () => void;
}

export function createToolSwitch(initiallyOn = false): ToolSwitch {
  let on = initiallyOn;
  const tracked = new Set<RegisteredTool>();
  return {
    isOn: () => on,
    toggle() {
      on = !on;
      for (const tool of tracked) {
        // enable()/disable() make the SDK send tools/list_changed on that server's connection.
        if (on) tool.enable();
        else tool.disable();
      }
      return on;
    },
    track(tool) {
      tracked.add(tool);
      return () => tracked.delete(tool);
    },
  };
}

export interface RetailServerDeps {
  readonly store: RetailStore;
  readonly faults: FaultPlan;
  readonly toolSwitch: ToolSwitch;
  /** A line for the operator (stderr). */
  readonly log: (line: string) => void;
  /** Ends the process (the crash fault). */
  readonly exit: (code: number) => void;
}

/** `longLived`: the server serves a connection or session (tracked by the switch) rather than one request. */
export type RetailServerFactory = (longLived: boolean) => McpServer;

export function createRetailServerFactory(deps: RetailServerDeps): RetailServerFactory {
  return (longLived) => {
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: { listChanged: true } },
      instructions: INSTRUCTIONS,
      maxToolInputElements: 10_000,
    });
    for (const tool of RETAIL_TOOLS) {
      const registered = server.registerTool(
        tool.name,
        {
          description: tool.description,
          inputSchema: tool.inputSchema,
          outputSchema: z.union([tool.outputSchema, REFUSAL]).meta({ type: 'object' }),
          annotations:
            tool.kind === 'read'
              ? { readOnlyHint: true, openWorldHint: false }
              : { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
        },
        (args: unknown) => callTool(tool, args, deps),
      );
      if (tool.name !== STORE_HOURS_TOOL) continue;
      if (!deps.toolSwitch.isOn()) registered.disable();
      if (longLived) {
        const untrack = deps.toolSwitch.track(registered);
        const previous = server.server.onclose;
        server.server.onclose = () => {
          untrack();
          previous?.();
        };
      }
    }
    return server;
  };
}

async function callTool(tool: RetailTool, args: unknown, deps: RetailServerDeps): Promise<CallToolResult> {
  const { faults, store } = deps;
  if (faults.delayMs > 0) await sleep(faults.delayMs);
  if (faults.hangOn === tool.name) {
    deps.log(`${tool.name}: received, never answering (RETAIL_TOOLS_HANG_ON)`);
    return new Promise<never>(() => {});
  }
  const outcome = tool.kind === 'write' ? store.change((draft) => tool.run(draft, args)) : tool.run(store.current(), args);
  if (faults.crashOn === tool.name) {
    deps.log(`${tool.name}: ${outcome.ok ? 'applied' : 'refused'}, exiting before answering (RETAIL_TOOLS_CRASH_ON)`);
    deps.exit(1);
  }
  return toolResult(outcome);
}

function toolResult(outcome: Outcome<Record<string, unknown>>): CallToolResult {
  const structured = outcome.ok ? outcome.value : { error: outcome.error };
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(outcome.ok ? {} : { isError: true }),
  };
}
