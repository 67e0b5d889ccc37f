/**
 * The golden paths as build output (`<out>/<agent>/paths.json`, with `"paths": true` in sop.config.json or
 * `sop build --paths`): test fixtures an app's suite walks through the real runtime (`sop-toolkit/testing`), and a
 * reviewable record of every way through each SOP, whose diff shows what an edit of the flowchart changed. Made from
 * the bundle the build planned, with the default limits, so `--check` finds them stale like any other output.
 */
import type { SopBundle } from '../../contract/compiled-sop.js';
import { type Composition, composeSop } from '../../contract/composition.js';
import { BUNDLE_PATH } from '../emit/bundle-plan.js';
import type { GeneratedFile } from '../emit/emit-project.js';
import { DEFAULT_PATH_LIMITS, goldenPaths } from './golden-paths.js';

export const PATHS_FILE = 'paths.json';

/** One `<agent>/paths.json` per agent of the planned bundle (none when the build plans no bundle). */
export function pathFixtures(outputs: readonly GeneratedFile[]): GeneratedFile[] {
  const bundleFile = outputs.find((f) => f.path === BUNDLE_PATH);
  if (bundleFile === undefined) return [];
  const bundle = JSON.parse(bundleFile.content) as SopBundle;
  // A SOP with sub-flows is walked as the runtime serves it: expanded with the SOPs it calls.
  return Object.keys(bundle.agents).flatMap((agent) => {
    const expanded = expandedAgent(bundle, agent);
    if (!expanded.ok) return [];
    return [{ path: `${agent}/${PATHS_FILE}`, content: `${JSON.stringify(goldenPaths(expanded.sop, DEFAULT_PATH_LIMITS), null, 2)}\n` }];
  });
}

/** An agent of a bundle expanded with the SOPs it calls (itself when it calls none), or why it cannot be. */
export function expandedAgent(bundle: SopBundle, agent: string): Composition {
  const sop = Object.hasOwn(bundle.agents, agent) ? bundle.agents[agent] : undefined;
  if (sop === undefined)
    return { ok: false, error: `no agent ${agent} (compiled agents: ${Object.keys(bundle.agents).join(', ') || 'none'})` };
  return composeSop(sop, (name) => (Object.hasOwn(bundle.agents, name) ? bundle.agents[name] : undefined));
}
