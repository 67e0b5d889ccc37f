/**
 * Per agent, two read-only views for MCP clients that want them without the tools: its system prompt as an
 * MCP prompt (named after the agent) and its Mermaid flowchart, as written, as a resource
 * `sop://<agent>/flowchart` (`text/vnd.mermaid`). Listing needs only the registry; reading loads the agent.
 * Unknown names are JSON-RPC errors -32602: for a resource with `data: {uri}`, the "resource not found" of the
 * 2026-07-28 revision (earlier SDKs sent -32002; the SDK now sends -32602 in every era).
 * They read the catalog new runs start on, so a rebuilt bundle shows at once. Made once per server factory and
 * installed on every server it makes.
 */
import {
  type GetPromptRequest,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceRequest,
  ResourceNotFoundError,
  type Server,
} from '@modelcontextprotocol/server';
import type { AgentCatalog } from '../agents/agent-catalog.js';

export const FLOWCHART_MIME_TYPE = 'text/vnd.mermaid';
const FLOWCHART_URI = /^sop:\/\/([^/]+)\/flowchart$/;

export function flowchartUri(agent: string): string {
  return `sop://${agent}/flowchart`;
}

/** The five handlers, and how to install them on a server. */
export function agentContentHandlers(catalogOf: () => AgentCatalog): (server: Server) => void {
  const promptDescription = (agent: string, sourceFile: string) => `System prompt of the SOP agent ${agent} (compiled from ${sourceFile}).`;

  const listPrompts = () => ({
    prompts: catalogOf().entries.map((entry) => ({
      name: entry.meta.agent,
      title: `${entry.meta.agent} system prompt`,
      description: promptDescription(entry.meta.agent, entry.sourceFile),
    })),
  });

  const getPrompt = (request: GetPromptRequest) => {
    const catalog = catalogOf();
    const entry = catalog.byName(request.params.name);
    if (entry === undefined) {
      const names = catalog.entries.map((known) => known.meta.agent).join(', ');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}. Prompts: [${names}]`);
    }
    return {
      description: promptDescription(entry.meta.agent, entry.sourceFile),
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: entry.systemPrompt } }],
    };
  };

  const listResources = () => ({
    resources: catalogOf().entries.map((entry) => ({
      uri: flowchartUri(entry.meta.agent),
      name: `${entry.meta.agent}-flowchart`,
      title: `${entry.meta.agent} flowchart`,
      description: `Mermaid flowchart of the SOP agent ${entry.meta.agent}, as written in ${entry.sourceFile}.`,
      mimeType: FLOWCHART_MIME_TYPE,
    })),
  });

  const listResourceTemplates = () => ({
    resourceTemplates: [
      {
        uriTemplate: 'sop://{agent}/flowchart',
        name: 'flowchart',
        description: 'Mermaid flowchart of a compiled SOP agent.',
        mimeType: FLOWCHART_MIME_TYPE,
      },
    ],
  });

  const readResource = (request: ReadResourceRequest) => {
    const uri = request.params.uri;
    const name = FLOWCHART_URI.exec(uri)?.[1];
    const entry = name === undefined ? undefined : catalogOf().byName(name);
    if (entry === undefined) {
      throw new ResourceNotFoundError(uri, `Resource not found: ${uri}. Flowcharts are sop://<agent>/flowchart for the compiled agents.`);
    }
    return { contents: [{ uri, mimeType: FLOWCHART_MIME_TYPE, text: entry.flowchart }] };
  };

  return (server) => {
    server.setRequestHandler('prompts/list', listPrompts);
    server.setRequestHandler('prompts/get', getPrompt);
    server.setRequestHandler('resources/list', listResources);
    server.setRequestHandler('resources/templates/list', listResourceTemplates);
    server.setRequestHandler('resources/read', readResource);
  };
}
