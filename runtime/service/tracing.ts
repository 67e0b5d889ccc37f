/**
 * One OpenTelemetry span per tool call, through `@opentelemetry/api` only: without an SDK registered by the app
 * the API hands out non-recording spans and this costs next to nothing; with one, every `tools/call` shows up
 * with what it did to its run. Follows the OpenTelemetry conventions for MCP servers (semantic-conventions-genai,
 * docs/gen-ai/mcp.md, status Development):
 *   - span `tools/call <tool>`, kind SERVER, attributes `mcp.method.name`, `gen_ai.operation.name`
 *     (`execute_tool`), `gen_ai.tool.name`, `mcp.session.id`, `jsonrpc.request.id`;
 *   - parented on the W3C trace context the client sends in the request's `params._meta` (`traceparent`,
 *     `tracestate`, SEP-414), with a link to the ambient span (an HTTP server span, say) when there is one;
 *     without `_meta.traceparent` the ambient context is the parent;
 *   - an answer with `isError` sets `error.type` = `tool_error` and the span status to ERROR with the answer's
 *     error text; a JSON-RPC error (unknown tool) sets `error.type` to its code.
 * And the run: `sop.agent`, `sop.run_id`, `sop.step` (the call's audit seq), `sop.node.from`, `sop.node.to`,
 * `sop.node.target` (what goto_node asked for), `sop.inspect.view`, `sop.outcome` (ok | refused | error). A
 * refused move is navigation feedback, not a failure: `sop.outcome` = refused, status unset.
 *
 * The W3C `traceparent` is parsed here (a few lines, per the W3C Trace Context spec) rather than through the
 * app's global propagator: `_meta.traceparent` is W3C by definition, whatever propagator the app configured.
 */
import {
  type Attributes,
  type Context,
  context as otelContext,
  createTraceState,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanContext,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AuditOutcome } from '../store/run-store.js';

export const TRACER_NAME = 'sop-toolkit';

/** Per call, besides the tool and its arguments: the request's `_meta` and JSON-RPC id, when there is one. */
export interface CallRequest {
  readonly meta?: unknown;
  readonly requestId?: string | number | undefined;
  /** Gateway mode: whether the user can be asked during this call (the client supports elicitation on this channel). */
  readonly canAsk?: boolean;
  /** Gateway mode: the user's answer this call brings back (the question's id, and yes or no). */
  readonly answer?: { readonly id: string; readonly yes: boolean } | undefined;
}

/** What a call did to its run, known once its commit succeeded. */
export interface RunCallFacts {
  readonly runId: string;
  readonly agent: string;
  /** The call's audit seq (the run's version after it). */
  readonly step: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly outcome: AuditOutcome;
}

export interface ToolCallSpan {
  committed(facts: RunCallFacts): void;
  /** The span's W3C trace context (`traceparent`, `tracestate`), for the calls it makes (none when not recording). */
  traceContext(): { readonly traceparent?: string; readonly tracestate?: string };
  /** Ends the span with the call's answer. */
  end(result: CallToolResult): void;
  /** Ends the span with the protocol error the call was answered with instead. */
  fail(error: unknown): void;
}

export interface ToolTracing {
  start(tool: string, args: unknown, sessionId: string | undefined, request: CallRequest): ToolCallSpan;
}

/** Tracing through `tracer`, by default the global API's (a no-op until the app registers an SDK). */
export function createToolTracing(tracer: Tracer = trace.getTracer(TRACER_NAME)): ToolTracing {
  return {
    start(tool, args, sessionId, request) {
      const ambient = otelContext.active();
      const remote = remoteParent(request.meta);
      const ambientSpan = trace.getSpanContext(ambient);
      const links: Link[] =
        remote !== undefined && ambientSpan !== undefined && isSpanContextValid(ambientSpan) ? [{ context: ambientSpan }] : [];
      const attributes: Attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool };
      if (sessionId !== undefined) attributes['mcp.session.id'] = sessionId;
      if (request.requestId !== undefined) attributes['jsonrpc.request.id'] = String(request.requestId);
      const target = stringField(args, 'node_id');
      if (target !== undefined) attributes['sop.node.target'] = target;
      const view = stringField(args, 'view');
      if (view !== undefined) attributes['sop.inspect.view'] = view;
      const span = tracer.startSpan(`tools/call ${tool}`, { kind: SpanKind.SERVER, attributes, links }, remote ?? ambient);
      let outcome: AuditOutcome | undefined;
      return {
        traceContext() {
          const context = span.spanContext();
          if (!isSpanContextValid(context)) return {};
          const traceparent = `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 1).toString(16).padStart(2, '0')}`;
          const tracestate = context.traceState?.serialize();
          return tracestate ? { traceparent, tracestate } : { traceparent };
        },
        committed(facts) {
          outcome = facts.outcome;
          if (!span.isRecording()) return;
          span.setAttributes({ 'sop.agent': facts.agent, 'sop.run_id': facts.runId, 'sop.step': facts.step });
          if (facts.from !== null) span.setAttribute('sop.node.from', facts.from);
          if (facts.to !== null) span.setAttribute('sop.node.to', facts.to);
        },
        end(result) {
          if (span.isRecording()) {
            span.setAttribute('sop.outcome', outcome ?? (result.isError === true ? 'error' : 'ok'));
            if (result.isError === true) markError(span, 'tool_error', errorText(result));
          }
          span.end();
        },
        fail(error) {
          if (span.isRecording()) {
            const code = (error as { code?: unknown }).code;
            span.setAttribute('sop.outcome', 'error');
            span.recordException(error instanceof Error ? error : String(error));
            markError(span, typeof code === 'number' ? String(code) : error instanceof Error ? error.name : 'error', messageOf(error));
          }
          span.end();
        },
      };
    },
  };
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const MAX_TRACESTATE = 512;

/** The context of a valid W3C `traceparent` (and `tracestate`) in `_meta`, as a remote parent. */
export function remoteParent(meta: unknown): Context | undefined {
  const traceparent = stringField(meta, 'traceparent');
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is forbidden; version 00 has exactly four fields (later versions may append more).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  const tracestate = stringField(meta, 'tracestate');
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & 0x01,
    isRemote: true,
    ...(tracestate !== undefined && tracestate.length <= MAX_TRACESTATE ? { traceState: createTraceState(tracestate) } : {}),
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : undefined;
}

function markError(span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function errorText(result: CallToolResult): string {
  const error = (result.structuredContent as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : 'tool error';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stringField(value: unknown, key: string): string | undefined {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'string' ? field : undefined;
}
