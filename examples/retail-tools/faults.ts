/**
 * Fault injection for the gateway's fault tests, read once from the environment at start. Off unless asked:
 *   RETAIL_TOOLS_DELAY_MS=<ms>     every tool call waits that long before doing anything;
 *   RETAIL_TOOLS_HANG_ON=<tool>    a call of that tool never answers (and changes nothing);
 *   RETAIL_TOOLS_CRASH_ON=<tool>   a call of that tool is applied (and saved, with --db), then the process exits
 *                                  with code 1 before answering: the server died after receiving the call.
 * A misspelt tool name or a bad delay is a start-up error naming the valid values, never a fault silently off.
 */
import { type Outcome, ok, refuse } from './outcome.js';

export interface FaultPlan {
  readonly delayMs: number;
  readonly hangOn: string | undefined;
  readonly crashOn: string | undefined;
}

export function readFaultPlan(env: NodeJS.ProcessEnv, toolNames: readonly string[]): Outcome<FaultPlan> {
  const delayText = env.RETAIL_TOOLS_DELAY_MS?.trim() ?? '';
  const delayMs = delayText === '' ? 0 : Number(delayText);
  if (!Number.isInteger(delayMs) || delayMs < 0) {
    return refuse(`RETAIL_TOOLS_DELAY_MS must be a whole number of milliseconds (0 or more), not ${JSON.stringify(delayText)}`);
  }
  const tool = (variable: 'RETAIL_TOOLS_HANG_ON' | 'RETAIL_TOOLS_CRASH_ON'): Outcome<string | undefined> => {
    const name = env[variable]?.trim() ?? '';
    if (name === '') return ok(undefined);
    if (toolNames.includes(name)) return ok(name);
    return refuse(`${variable} names no tool: ${JSON.stringify(name)}; the tools are ${toolNames.join(', ')}`);
  };
  const hangOn = tool('RETAIL_TOOLS_HANG_ON');
  if (!hangOn.ok) return hangOn;
  const crashOn = tool('RETAIL_TOOLS_CRASH_ON');
  if (!crashOn.ok) return crashOn;
  return ok({ delayMs, hangOn: hangOn.value, crashOn: crashOn.value });
}

export function describeFaults(plan: FaultPlan): string | undefined {
  const parts = [
    plan.delayMs > 0 ? `every call waits ${plan.delayMs} ms` : undefined,
    plan.hangOn === undefined ? undefined : `${plan.hangOn} never answers`,
    plan.crashOn === undefined ? undefined : `${plan.crashOn} exits the process after applying the call`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : parts.join('; ');
}
