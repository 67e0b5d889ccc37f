/**
 * Makes the SDK `Server` for one connection (stdio) or one HTTP request: a thin shell that answers `tools/list`,
 * `tools/call`, prompts and resources from the session service, for one caller (principal and session). It holds
 * no state of its own, so making one per HTTP request is cheap: everything that does not depend on the caller
 * (the handlers for prompts and resources, the JSON Schema validator the SDK would otherwise build per server)
 * is made once, by the factory, and shared.
 *
 * Built on the SDK's low-level `Server`, not `McpServer`: McpServer turns an unknown tool name into an
 * `isError` result with no hook to change it, and the MCP spec calls that a protocol error (-32602).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
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
  let ajv: AjvJsonSchemaValidator | undefined;
  // The SDK only uses it to check elicitation answers, which these tools never request: made on first use.
  const validator: jsonSchemaValidator = {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      ajv ??= new AjvJsonSchemaValidator();
      return ajv.getValidator<T>(schema);
    },
  };
  return (caller) => {
    const server = new Server(info, { capabilities: CAPABILITIES, instructions: service.instructions(), jsonSchemaValidator: validator });
    server.setRequestHandler(ListToolsRequestSchema, listTools);
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      service.callTool(request.params.name, request.params.arguments, caller, { meta: request.params._meta, requestId: extra.requestId }),
    );
    installContent(server);
    return server;
  };
}
