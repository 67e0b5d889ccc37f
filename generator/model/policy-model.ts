/**
 * The model of the frontmatter keys that state what must hold on every path and how much the prompts may cost:
 * `policies` (each selector's node patterns and tools with their YAML positions, whichever form the author wrote
 * them in), `token_budget`, `escalation_node`, and `renames` (node ids an earlier version had). Positions are what the checks report violations at.
 */
import { entryOf, type NameRecord } from '../../contract/name-table.js';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { Frontmatter } from '../parse/frontmatter.js';
import type { YamlBlock } from '../parse/yaml-block.js';
import type { ModelPattern, ModelPolicy, ModelSelector, ModelTokenBudget, SopModel } from './sop-model.js';

/**
 * The pattern `confirmation: true` stands for: the user's message starts with an explicit yes. Anything else (a
 * question, "hmm", "no wait", "ok but first…" included) is not a confirmation.
 */
export const DEFAULT_CONFIRMATION = String.raw`^\W*(yes|yeah|yep|yup|sure|correct|confirm(ed)?|i confirm|go ahead|please do|please proceed|proceed|do it)\b(?!\W*(but|wait|hold|first|not|no)\b)`;

type Path = readonly (string | number)[];

export function policiesOf(fm: Frontmatter, yaml: YamlBlock): readonly ModelPolicy[] {
  const raw = rawAt(yaml.value, ['policies']);
  return [...(fm.policies ?? [])].map(([id, policy]) => {
    const at: Path = ['policies', id];
    const rawPolicy = rawAt(raw, [id]);
    const confirmation = policy.confirmation;
    return {
      id,
      span: yaml.spanOf(at, { key: true }),
      description: policy.description ?? null,
      severity: policy.severity ?? 'error',
      everyPathTo: selectorOf(yaml, rawPolicy, [...at, 'every_path_to']),
      passes: selectorOf(yaml, rawPolicy, [...at, 'passes']),
      confirmation:
        confirmation === undefined
          ? null
          : { pattern: confirmation === true ? DEFAULT_CONFIRMATION : confirmation, span: yaml.spanOf([...at, 'confirmation']) },
      evidence: policy.evidence === true ? yaml.spanOf([...at, 'evidence']) : null,
    };
  });
}

export function tokenBudgetOf(fm: Frontmatter, yaml: YamlBlock): ModelTokenBudget | null {
  const budget = fm.token_budget;
  if (budget === undefined) return null;
  const one = (key: 'node_prompt' | 'system_prompt' | 'goto_answer') => {
    const limit = budget[key];
    return limit === undefined ? null : { limit, span: yaml.spanOf(['token_budget', key]) };
  };
  return { nodePrompt: one('node_prompt'), systemPrompt: one('system_prompt'), gotoAnswer: one('goto_answer') };
}

export function renamesOf(fm: Frontmatter, yaml: YamlBlock): SopModel['renames'] {
  return [...(fm.renames ?? [])].map(([from, to]) => ({
    from,
    to,
    span: yaml.spanOf(['renames', from], { key: true }),
    toSpan: yaml.spanOf(['renames', from]),
  }));
}

export function escalationNodeOf(fm: Frontmatter, yaml: YamlBlock): SopModel['escalationNode'] {
  return fm.escalation_node === undefined ? null : { id: fm.escalation_node, span: yaml.spanOf(['escalation_node']) };
}

/** A selector as the author wrote it: a string or list (node patterns), or a map. */
function selectorOf(yaml: YamlBlock, rawPolicy: unknown, path: Path): ModelSelector {
  const raw = rawAt(rawPolicy, [path.at(-1)!]);
  const span = yaml.spanOf(path);
  if (typeof raw === 'string' || Array.isArray(raw))
    return { span, nodes: patternsAt(yaml, raw, path), tools: [], terminals: false, except: [] };
  const tools = rawAt(raw, ['tools']);
  return {
    span,
    nodes: patternsAt(yaml, rawAt(raw, ['nodes']), [...path, 'nodes']),
    tools: (typeof tools === 'string' ? [tools] : Array.isArray(tools) ? (tools as string[]) : []).map((name, i) => ({
      name,
      span: yaml.spanOf(typeof tools === 'string' ? [...path, 'tools'] : [...path, 'tools', i]),
    })),
    terminals: rawAt(raw, ['terminals']) === true,
    except: patternsAt(yaml, rawAt(raw, ['except']), [...path, 'except']),
  };
}

function patternsAt(yaml: YamlBlock, raw: unknown, path: Path): ModelPattern[] {
  if (typeof raw === 'string') return [{ pattern: raw, span: yaml.spanOf(path) }];
  if (!Array.isArray(raw)) return [];
  return raw.map((pattern, i) => ({ pattern: String(pattern), span: yaml.spanOf([...path, i]) as SourceSpan }));
}

/** The YAML value at `path`: own keys only, so a policy named `constructor` is read as the author wrote it. */
function rawAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path) v = v !== null && typeof v === 'object' ? entryOf(v as NameRecord<unknown>, String(key)) : undefined;
  return v;
}
