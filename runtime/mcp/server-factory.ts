/**
 * Makes the SDK `Server` for one connection (stdio) or one HTTP request: a thin shell that answers `tools/list`,
 * `tools/call`, prompts and resources from the session service, for one caller (principal and session). It holds
 * no state of its own, so making one per HTTP request is cheap: everything that does not depend on the caller
 * (the handlers for prompts and resources) is made once, by the factory, and shared.
 *
 * One shell serves both protocol eras (the SDK's v2 line): 2025-era connections that open with `initialize`,
 * and 2026-07-28 requests that carry their own `_meta` envelope. What differs is whether the user can be asked
 * mid-call (gateway confirmations): a 2026-07-28 request can when its client declared elicitation (the answer
 * comes back with the retried call, `input_required`); a 2025-era connection can when its client declared it at
 * `initialize` and the channel is long-lived (stdio), where the SDK pushes `elicitation/create` for us. A
 * 2025-era HTTP request is served here for one exchange and cannot; its plain tool calls are asked on their own
 * event stream before they get here (`http/asking-tool-call.ts`).
 *
 * Built on the SDK's low-level `Server`, not `McpServer`: McpServer turns an unknown tool name into an
 * `isError` result with no hook to change it, and the MCP spec calls that a protocol error (-32602).
 */
import {
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type Caller, isQuestion, type SessionService } from '../service/session-service.js';
import type { CallRequest } from '../service/tracing.js';
import { CONFIRMATION_INPUT_KEY } from '../tools/confirmation.js';
import { agentContentHandlers } from './agent-content.js';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

export type ServerFactory = (caller: Caller) => Server;

export function createServerFactory(service: SessionService, info: ServerInfo = { name: 'sop-toolkit', version: '0.1.0' }): ServerFactory {
  const installContent = agentContentHandlers(() => service.catalog());
  const listTools = () => ({ tools: [...service.tools()] });
  // A gateway's list follows its domain servers, so it says it may change.
  const capabilities = { tools: service.gateway ? { listChanged: true } : {}, prompts: {}, resources: {} };
  return (caller) => {
    const server = new Server(info, { capabilities, instructions: service.instructions() });
    server.setRequestHandler('tools/list', listTools);
    server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const answer = await service.callTool(request.params.name, request.params.arguments, caller, callRequest(server, caller, ctx));
      if (!isQuestion(answer)) return answer;
      const { question } = answer;
      return inputRequired({
        inputRequests: {
          [CONFIRMATION_INPUT_KEY]: inputRequired.elicit({ message: question.message, requestedSchema: question.requestedSchema }),
        },
        requestState: question.id,
      });
    });
    installContent(server);
    return server;
  };
}

/** What the service needs of the request besides the tool and its arguments. */
function callRequest(server: Server, caller: Caller, ctx: ServerContext): CallRequest {
  const modern = ctx.mcpReq.envelope !== undefined && Object.keys(ctx.mcpReq.envelope).length > 0;
  const capabilities = modern
    ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'] as
        | { elicitation?: unknown }
        | undefined)
    : caller.channel === 'connection'
      ? server.getClientCapabilities()
      : undefined;
  const state = ctx.mcpReq.requestState<unknown>();
  const view = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION_INPUT_KEY);
  const answer =
    typeof state === 'string' && view.kind === 'elicit'
      ? { id: state, yes: view.action === 'accept' && (view.content as { confirm?: unknown } | undefined)?.confirm === true }
      : undefined;
  return {
    meta: ctx.mcpReq._meta,
    requestId: ctx.mcpReq.id,
    canAsk: capabilities?.elicitation !== undefined && capabilities.elicitation !== null,
    ...(answer === undefined ? {} : { answer }),
  };
}
