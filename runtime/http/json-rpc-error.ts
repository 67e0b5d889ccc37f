/**
 * Every HTTP-level refusal of the server is a JSON-RPC error object with `id: null` (never an HTML page), so
 * an MCP client can report it like any other protocol error.
 */
import type { Response } from 'express';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;
/** The SDK's generic server error code, used for transport-level refusals (bad session, forbidden). */
export const SERVER_ERROR = -32000;

export function sendJsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
