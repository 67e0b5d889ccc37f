/**
 * The `run_id` argument every tool but `load_graph` accepts. `load_graph` returns a run's id; passing it back
 * selects the run explicitly, which is what sessionless clients and stateless HTTP deployments do (the MCP
 * revision of 2026-07-28 drops the session header). Without it, the session's current run (its last
 * `load_graph`, over stdio or with an `Mcp-Session-Id`) is implied.
 */
import { z } from 'zod';

export const RUN_ID_FIELD = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('The run to act on, as load_graph returned it. Optional when the session has a current run (stdio, Mcp-Session-Id).');
