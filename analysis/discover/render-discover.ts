/**
 * `sop discover`'s report for people: what was mined and drafted, the rules, how well the logs fit the draft and
 * what it allows that no log did, the variants that fail most; and, with `--against`, practice against the written
 * SOP as markdown a team can paste into an issue or a pull request and discuss.
 */
import type { DiscoverReport } from './discover-report.js';
import { FITTING } from './draft-fit.js';
import type { Difference } from './practice.js';

export function renderDiscoverText(report: DiscoverReport): string {
  const lines: string[] = [];
  const steps = report.nodes.filter((n) => n.kind === 'step');
  const decisions = report.nodes.filter((n) => n.kind === 'decision' || n.kind === 'hub');
  lines.push(
    `${count(report.conversations, 'conversation')} mined${report.read === report.conversations ? '' : ` (of ${report.read} read)`} → ` +
      `${report.out === null ? 'draft' : report.out}: agent ${report.agent}, ${count(report.nodes.length, 'node')} ` +
      `(${count(steps.length, 'step')}, ${count(decisions.length, 'decision')}), ${count(report.intents.length, 'intent')}; noise threshold ${report.noise}`,
  );
  const opening = report.nodes.filter((n) => n.part === 'opening');
  if (opening.length > 0) lines.push(`opening: ${opening.map(nodeText).join(' → ')}`);
  if (report.intents.length > 0) {
    lines.push('intents (requests mined, then their steps):');
    const width = Math.max(...report.intents.map((i) => i.name.length));
    for (const intent of report.intents) {
      const nodes = report.nodes.filter((n) => n.part === intent.name && n.kind === 'step');
      lines.push(`  ${intent.name.padEnd(width)}  ${String(intent.requests).padStart(5)}  ${nodes.map(nodeText).join(' → ')}`);
    }
  }
  if (report.rare_intents.intents.length > 0)
    lines.push(
      `too rare to draft (fewer than ${report.rare_intents.minimum} requests): ${report.rare_intents.intents.map((i) => `${i.intent} ${i.requests}`).join(', ')}`,
    );
  for (const e of report.rules.evidence)
    lines.push(`rule: ${e.node} requires evidence${e.about === null ? '' : ` about ${e.about}`} (${e.tools.join(', ')}): ${e.because}`);
  for (const c of report.rules.conditions) lines.push(`rule: ${c.node} → ${c.target} when ${c.when}: ${c.because}`);
  for (const p of report.rules.policies)
    lines.push(
      `rule: ${p.id}: ${p.tools.join(', ')} only at ${p.passes.join(', ')}${p.confirmation ? ', after the user’s explicit yes' : ''}`,
    );
  const fit = report.fit;
  if (fit.fitness !== null) {
    const deviations = Object.entries(fit.deviations).map(([kind, n]) => `${kind} ${n}`);
    lines.push(
      `fit (sop replay's alignment): mean fitness ${fit.fitness.toFixed(4)}, min ${fit.min_fitness!.toFixed(4)}; ` +
        `${fit.fitting} of ${fit.scored} fit (≥ ${FITTING})${deviations.length === 0 ? '' : `; deviations: ${deviations.join(', ')}`}`,
    );
  }
  if (fit.left_out_fitness !== null)
    lines.push(`not mined (failures): ${count(fit.left_out, 'conversation')}, mean fitness ${fit.left_out_fitness.toFixed(4)}`);
  const allows = fit.allows;
  lines.push(
    `what the draft allows that no log did: ${count(allows.unused_edges.length, 'edge')} never taken${allows.unused_edges.length === 0 ? '' : ` (${shortList(allows.unused_edges)})`}; ` +
      `${allows.paths.unwalked} of ${allows.paths.listed} paths listed never walked${allows.paths.examples.length === 0 ? '' : `, e.g. ${allows.paths.examples[0]}`}`,
  );
  if (report.outcomes.source !== null)
    lines.push(
      `outcomes (${report.outcomes.source}): ${report.outcomes.successes} successes, ${report.outcomes.failures} failures, ${report.outcomes.unknown} unknown` +
        (report.outcomes.unmatched_keys.length === 0
          ? ''
          : `; keys that named no transcript: ${shortList(report.outcomes.unmatched_keys)}`),
    );
  if (fit.variants.length > 0) {
    lines.push('variants that fail most (walks through the draft):');
    for (const v of fit.variants)
      lines.push(
        `  ${v.failures}/${v.conversations} failed (${(100 * v.failure_rate).toFixed(0)}%), fitness ${v.fitness.toFixed(4)}: ${v.variant}  e.g. ${v.examples.join(', ')}`,
      );
  }
  for (const w of report.warnings) lines.push(`warning ${w.code} (draft line ${w.line}): ${w.message}`);
  if (report.tool_prefixes.length > 0)
    lines.push(
      `tool prefixes taken off: ${shortList(report.tool_prefixes.map((p) => `${p.prefix} (${count(p.tools.length, 'tool')}, ${count(p.calls, 'call')})`))}`,
    );
  if (report.left_out_calls.length > 0)
    lines.push(`calls not mined: ${shortList(report.left_out_calls.map((c) => `${c.tool} ×${c.calls} (${c.kind})`))}`);
  if (report.superseded.length > 0) lines.push(`resumed Claude Code logs read once: ${count(report.superseded.length, 'log')} superseded`);
  for (const e of report.problems.errors) lines.push(`could not read: ${e.error}`);
  if (report.problems.skipped.length > 0) lines.push(`skipped (no conversation): ${shortList(report.problems.skipped.map((s) => s.file))}`);
  const text = `${lines.join('\n')}\n`;
  return report.differences === undefined ? text : `${text}\n${renderPracticeMarkdown(report)}`;
}

/** Practice against the written SOP, as markdown: the deviations per node, then what was never used. */
export function renderPracticeMarkdown(report: DiscoverReport): string {
  const against = report.against!;
  const differences = report.differences ?? [];
  const seen = differences.filter((d) => d.count > 0);
  const edges = differences.filter((d) => d.kind === 'unused_edge');
  const tools = differences.filter((d) => d.kind === 'unused_tool');
  const lines = [
    `## Practice against ${against.file} (${against.agent})`,
    '',
    `${count(against.conversations, 'conversation')} aligned to the written SOP by \`sop replay\`'s alignment; mean fitness ${against.fitness === null ? '—' : against.fitness.toFixed(4)}.`,
    '',
  ];
  if (seen.length === 0) lines.push('No deviation: every call was made where the written SOP offers it, in its order.', '');
  else {
    lines.push('| kind | node | tool | deviations | conversations | examples |', '| --- | --- | --- | ---: | ---: | --- |');
    for (const d of seen)
      lines.push(
        `| ${d.kind} | ${cell(d.node)} | ${cell(d.tool)} | ${d.count} | ${d.conversations} | ${d.examples.map((e) => cell(e)).join('<br>')} |`,
      );
    lines.push('');
  }
  lines.push('### What practice never used', '');
  lines.push(
    edges.length === 0 ? '- edges: every edge was taken' : `- edges never taken (${edges.length}): ${edges.map(edgeText).join(', ')}`,
  );
  lines.push(
    tools.length === 0
      ? '- tools: every tool was called where it is offered'
      : `- tools never called where offered (${tools.length}): ${tools.map((d) => `${d.tool} at ${d.node}`).join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}

function nodeText(node: DiscoverReport['nodes'][number]): string {
  return node.tools.length === 0 ? node.id : `${node.id} (${node.tools.join(', ')})`;
}

function edgeText(d: Difference): string {
  return `${d.node} → ${d.to}`;
}

function cell(text: string | null): string {
  return text === null ? '' : `\`${text.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
}

function shortList(items: readonly string[], shown = 6): string {
  return items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}
