/**
 * One OpenTelemetry span per tool call, seen through the real SDK (BasicTracerProvider with an in-memory
 * exporter, given to the service, nothing registered globally) while a real MCP client drives a run: names,
 * kind and attributes per the MCP conventions, the run's facts (agent, run, step, from → to, outcome), error
 * status for isError answers and JSON-RPC errors, and the parent taken from `_meta.traceparent`.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { remoteParent } from '../../../runtime/service/tracing.js';
import { type Connected, connectInMemory, fixtureService } from '../helpers/mcp-client.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let session: Connected;

beforeEach(async () => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  session = await connectInMemory({ service: fixtureService({ tracer: provider.getTracer('test') }) });
});
afterEach(async () => {
  await session.close();
  await session.service.close();
  await provider.shutdown();
});

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const last = (): ReadableSpan => spans().at(-1)!;

describe('a span per tool call', () => {
  it('names it after the MCP method and tool, and records what the call did to its run', async () => {
    const runId = (await session.call('load_graph', { agent: 'support_desk' })).answer.run_id as string;
    expect(spans()).toHaveLength(1);
    expect(last().name).toBe('tools/call load_graph');
    expect(last().kind).toBe(SpanKind.SERVER);
    expect(last().attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'load_graph',
      'mcp.session.id': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
      'sop.agent': 'support_desk',
      'sop.run_id': runId,
      'sop.step': 1,
      'sop.outcome': 'ok',
    });

    await session.call('goto_node', { node_id: 'START' });
    await session.call('goto_node', { node_id: 'AUTH' });
    expect(last().name).toBe('tools/call goto_node');
    expect(last().attributes).toMatchObject({
      'sop.run_id': runId,
      'sop.step': 3,
      'sop.node.from': 'START',
      'sop.node.to': 'AUTH',
      'sop.node.target': 'AUTH',
      'sop.outcome': 'ok',
    });
    expect(last().status.code).toBe(SpanStatusCode.UNSET);

    await session.call('inspect', { view: 'where' });
    expect(last().attributes).toMatchObject({
      'gen_ai.tool.name': 'inspect',
      'sop.inspect.view': 'where',
      'sop.node.from': 'AUTH',
      'sop.node.to': 'AUTH',
    });
  });

  it('marks a refused move as refused but not as an error', async () => {
    await session.call('load_graph', { agent: 'support_desk' });
    await session.call('goto_node', { node_id: 'START' });
    await session.call('goto_node', { node_id: 'END_ADDR' });
    expect(last().attributes).toMatchObject({
      'sop.outcome': 'refused',
      'sop.node.from': 'START',
      'sop.node.to': 'START',
      'sop.node.target': 'END_ADDR',
    });
    expect(last().attributes['error.type']).toBeUndefined();
    expect(last().status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks an isError answer as a tool_error with its message, also before any run exists', async () => {
    await session.call('goto_node', { node_id: 'START' });
    expect(last().attributes).toMatchObject({ 'sop.outcome': 'error', 'error.type': 'tool_error' });
    expect(last().status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/^No run: call load_graph first/) });

    await session.call('load_graph', { agent: 'support_desk' });
    await session.call('goto_node', { node_id: 'NOPE' });
    expect(last().attributes).toMatchObject({ 'sop.outcome': 'error', 'error.type': 'tool_error', 'sop.step': 2 });
    expect(last().status.message).toMatch(/^Node not found: NOPE/);
  });

  it('marks a JSON-RPC error (an unknown tool) with its code and the exception', async () => {
    await expect(session.client.callTool({ name: 'teleport', arguments: {} })).rejects.toBeInstanceOf(McpError);
    expect(last().name).toBe('tools/call teleport');
    expect(last().attributes).toMatchObject({ 'error.type': '-32602', 'sop.outcome': 'error' });
    expect(last().status.code).toBe(SpanStatusCode.ERROR);
    expect(last().events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('trace context from _meta', () => {
  it("parents the call's span on the client's traceparent and keeps its tracestate", async () => {
    await session.client.callTool({
      name: 'load_graph',
      arguments: { agent: 'support_desk' },
      _meta: { traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01`, tracestate: 'vendor=abc' },
    });
    const span = last();
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_SPAN, isRemote: true });
    expect(span.spanContext().traceState?.get('vendor')).toBe('abc');
  });

  it('starts a new trace without one', async () => {
    await session.call('load_graph', { agent: 'support_desk' });
    expect(last().parentSpanContext).toBeUndefined();
    expect(last().spanContext().traceId).not.toBe(TRACE_ID);
  });

  it.each([
    ['garbage', 'not a traceparent'],
    ['version ff', `ff-${TRACE_ID}-${PARENT_SPAN}-01`],
    ['a zero trace id', `00-${'0'.repeat(32)}-${PARENT_SPAN}-01`],
    ['a zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['version 00 with extra fields', `00-${TRACE_ID}-${PARENT_SPAN}-01-extra`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_SPAN}-01`],
  ])('ignores an invalid traceparent: %s', (_case, traceparent) => {
    expect(remoteParent({ traceparent })).toBeUndefined();
  });

  it('accepts a later version with more fields, and reads the sampled flag', () => {
    expect(remoteParent({ traceparent: `01-${TRACE_ID}-${PARENT_SPAN}-00-more` })).toBeDefined();
    expect(remoteParent({ traceparent: `00-${TRACE_ID}-${PARENT_SPAN}-01` })).toBeDefined();
  });
});

describe('without an SDK', () => {
  it('answers every call as usual through the global API (no provider registered: non-recording spans)', async () => {
    const plain = await connectInMemory();
    try {
      expect((await plain.call('load_graph', { agent: 'support_desk' })).isError).toBe(false);
      expect((await plain.call('goto_node', { node_id: 'START' })).answer.valid).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
