/**
 * Makes the SDK `Server` for one connection (stdio) or one HTTP request: a thin shell that answers `tools/list`,
 * `tools/call`, prompts and resources from the session service, for one caller (principal and session). It holds
 * no state of its own, so making one per HTTP request is cheap: everything that does not depend on the caller
 * (the handlers for prompts and resources) is made once, by the factory, and shared.
 *
 * One shell serves both protocol eras (the SDK's v2 line): 2025-era connections that open with `initialize`,
 * and 2026-07-28 requests that carry their own `_meta` envelope. Nothing here depends on the era; the serving
 * entries (`serve-stdio.ts`, `serve-http.ts`) decide it and say so in the caller.
 *
 * Built on the SDK's low-level `Server`, not `McpServer`: McpServer turns an unknown tool name into an
 * `isError` result with no hook to change it, and the MCP spec calls that a protocol error (-32602).
 */
import { Server } from '@modelcontextprotocol/server';
import type { Caller, SessionService } from '../service/session-service.js';
import { agentContentHandlers } from './agent-content.js';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

export type ServerFactory = (caller: Caller) => Server;

const CAPABILITIES = Object.freeze({ tools: Object.freeze({}), prompts: Object.freeze({}), resources: Object.freeze({}) });

export function createServerFactory(service: SessionService, info: ServerInfo = { name: 'sop-toolkit', version: '0.1.0' }): ServerFactory {
  const installContent = agentContentHandlers(() => service.catalog());
  const listTools = () => ({ tools: [...service.tools] });
  return (caller) => {
    const server = new Server(info, { capabilities: CAPABILITIES, instructions: service.instructions() });
    server.setRequestHandler('tools/list', listTools);
    server.setRequestHandler('tools/call', (request, ctx) =>
      service.callTool(request.params.name, request.params.arguments, caller, { meta: ctx.mcpReq._meta, requestId: ctx.mcpReq.id }),
    );
    installContent(server);
    return server;
  };
}
