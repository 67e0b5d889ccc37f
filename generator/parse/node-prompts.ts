/**
 * Reads `## Node Prompts` in either accepted form:
 *  - `### NODE_ID` subsections, each with an optional leading ```yaml block (tools, examples, max_visits,
 *    escalate_to, evidence, when, subflow, exits, fork, join) and the prompt text after it, kept as written and trimmed;
 *  - one ```yaml block with a single key `node_prompts:` mapping node id → {tools, examples, max_visits,
 *    escalate_to, evidence, when, subflow, exits, fork, join, prompt}.
 * The conditions of `when` and of evidence's `shows` are read here (`conditions.ts`; SOP068 where one does not
 * parse, at the character that does not); a tool named with dots is the longest frontmatter tool the reference starts with.
 * Both produce the same `ParsedPrompt` values; diagnostics inside YAML point at its lines in the `.md` file. A section
 * with neither form is a warning (SOP025): the file compiles, its nodes have no prompts. Whether the ids are nodes of the graph is the checker's business, not this stage's.
 */
import { z } from 'zod';
import type { DiagnosticSink } from '../diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type Diagnostic, type SourceSpan } from '../diagnostics/diagnostic.js';
import { suggester } from '../diagnostics/closest-match.js';
import { quoted } from '../diagnostics/quoted.js';
import type { ConditionOperator, ConditionValue, SopExample } from '../../contract/compiled-sop.js';
import { type ConditionForm, type ConditionSyntax, parseCondition } from './conditions.js';
import type { CodeBlock, MarkdownBlock } from './markdown/block.js';
import { codeContentStart, headingText, spanOf, type MarkdownSection } from './markdown-sections.js';
import type { SourceText } from './source-text.js';
import { parseYamlBlock, type ReadYaml, type YamlBlock, type YamlProblem } from './yaml-block.js';

/** A node's `max_visits`, with its own escalation node (`escalate_to`) or null for the SOP's `escalation_node`. */
export interface ParsedVisitLimit {
  readonly max: number;
  readonly span: SourceSpan;
  readonly escalateTo: { readonly id: string; readonly span: SourceSpan } | null;
}

/**
 * A node's `evidence`: `true` (any of its tools), a list of tools, or `{tools, about, fresh, shows}`; `about` names
 * the argument the evidence is about (`order_id`).
 */
export interface ParsedEvidence {
  readonly span: SourceSpan;
  /** The tools named; null for "any of the node's tools". */
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[] | null;
  readonly about: { readonly name: string; readonly span: SourceSpan } | null;
  /** `fresh: true`: only a call made during the visit counts. */
  readonly fresh: boolean;
  /** What the answer must show (`shows`), the conditions that parsed, in order. */
  readonly shows: readonly ParsedFieldCondition[];
}

/** A condition over an answer's field (evidence's `shows`), where it is written. */
export interface ParsedFieldCondition {
  readonly field: readonly string[];
  readonly op: ConditionOperator;
  readonly values: readonly ConditionValue[];
  /** As written, trimmed. */
  readonly text: string;
  /** The condition (the YAML value). */
  readonly span: SourceSpan;
  /** The field's path: its characters when the value is written as it is (one line, no escapes), else `span`. */
  readonly fieldSpan: SourceSpan;
}

/** A condition of `when` over a tool's answer read earlier in the run. */
export interface ParsedDataCondition extends ParsedFieldCondition {
  /** The tool, and its name's characters (or the whole condition, as `fieldSpan`). */
  readonly tool: { readonly name: string; readonly span: SourceSpan };
}

/** One entry of a node's `when`: the successor it is about and its condition (null when it does not parse: SOP068 said why). */
export interface ParsedWhen {
  readonly target: string;
  /** The target's key. */
  readonly span: SourceSpan;
  readonly condition: ParsedDataCondition | null;
}

/** A node's `subflow` (the agent whose SOP it calls) and its declared `exits` (a terminal of that SOP → a successor). */
export interface ParsedSubflow {
  readonly agent: string;
  readonly span: SourceSpan;
  readonly exits: readonly {
    readonly terminal: string;
    readonly target: string;
    /** The terminal's key. */
    readonly span: SourceSpan;
    readonly targetSpan: SourceSpan;
  }[];
}

/** A fork node's `fork`: the join its branches meet at. */
export interface ParsedFork {
  readonly join: string;
  readonly span: SourceSpan;
}

/** A join node's `join`: how its branches complete it. */
export interface ParsedJoin {
  readonly strategy: 'all' | 'any';
  readonly span: SourceSpan;
}

export interface ParsedPrompt {
  readonly nodeId: string;
  readonly span: SourceSpan;
  readonly prompt: string;
  readonly tools: readonly { readonly name: string; readonly span: SourceSpan }[];
  readonly examples: readonly SopExample[];
  readonly visitLimit: ParsedVisitLimit | null;
  readonly strayEscalateTo: SourceSpan | null;
  readonly evidence: ParsedEvidence | null;
  /** `when`: the node's edges decided by data, in the order written. */
  readonly when: readonly ParsedWhen[];
  readonly subflow: ParsedSubflow | null;
  /** `exits` written without `subflow` (it has no effect; the checker says so). */
  readonly strayExits: SourceSpan | null;
  readonly fork: ParsedFork | null;
  readonly join: ParsedJoin | null;
}

export interface NodePromptsResult {
  readonly form: 'headings' | 'yaml-map' | 'none';
  readonly prompts: readonly ParsedPrompt[];
}

const exampleSchema = z.strictObject({ user: z.string(), agent: z.string() });
const toolList = z.array(z.string().min(1)).min(1);
const argumentName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'must be the name of an argument of the tools, e.g. `order_id`');
/** A condition: whatever is written is kept, and read by `conditionAt` (SOP068 for what is not a condition). */
const showsList = z.preprocess(
  (v) => (typeof v === 'string' ? [v] : v),
  z.array(z.unknown(), { error: 'must be a list of conditions, e.g. `[status == pending]`' }).min(1, {
    error: 'must list at least one condition, e.g. `status == pending`',
  }),
);
const evidenceSchema = z.union([
  z.literal(true),
  toolList,
  z.strictObject({
    tools: toolList.optional(),
    about: argumentName.optional(),
    fresh: z.boolean().optional(),
    shows: showsList.optional(),
  }),
]);
/** A map keyed by the author's names (`exits`' terminal ids, `when`'s successors), as a `Map`: every key kept as written. */
const nameMap = <V extends z.ZodType>(value: V, error: string) =>
  z.preprocess(
    (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) ? new Map(Object.entries(v)) : v),
    z.map(z.string(), value, { error }),
  );
const metaShape = {
  tools: z.array(z.string().min(1)).optional(),
  examples: z.array(exampleSchema).optional(),
  max_visits: z.number().int().min(1).optional(),
  escalate_to: z.string().min(1).optional(),
  evidence: evidenceSchema.optional(),
  when: nameMap(
    z.unknown(),
    'must be a map from a successor of the node to a condition, e.g. `COLLECT_CANCEL: get_order_details.status == pending`',
  ).optional(),
  subflow: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'must be the name of an agent ([a-z][a-z0-9_]*), the `agent` of the SOP it calls')
    .optional(),
  exits: nameMap(z.string().min(1), 'must be a map from a terminal node of the called SOP to a successor of this node').optional(),
  fork: z.string().min(1).optional(),
  join: z.union([z.literal(true), z.enum(['all', 'any'])]).optional(),
};
/** What to write instead, for the keys whose shape the default remediation (tools, examples) does not describe. */
const KEY_REMEDIATION: ReadonlyMap<string, string> = new Map([
  [
    'evidence',
    "Write `evidence: true`, a list of the node's tools, or `{tools: [...], about: order_id, fresh: true, shows: [status == pending]}`.",
  ],
  ['when', 'Write `when:` and, indented below it, one `SUCCESSOR: TOOL.FIELD OP VALUE` line per edge decided by data.'],
]);
const headingMetaSchema = z.object(metaShape);
const mapEntrySchema = z.object({ ...metaShape, prompt: z.string().optional() });
const HEADING_KEYS = Object.keys(metaShape);
const MAP_KEYS = [...HEADING_KEYS, 'prompt'];

/**
 * @param toolNames the frontmatter's tools: a condition's reference names the longest of them it starts with (a tool
 *   named with dots), else its first segment
 */
export function parseNodePrompts(
  source: SourceText,
  section: MarkdownSection,
  sink: DiagnosticSink,
  toolNames: readonly string[] = [],
  readYaml: ReadYaml = parseYamlBlock,
): NodePromptsResult {
  const tools = new Set(toolNames);
  const hasHeadings = section.children.some((c) => c.kind === 'heading' && c.depth === 3);
  const mapBlock = section.children.find((c): c is CodeBlock => c.kind === 'code' && c.lang === 'yaml' && hasNodePromptsKey(c.value));
  if (hasHeadings && mapBlock) {
    sink.push(
      diagnosticAt(
        source.file,
        'SOP024',
        spanOf(mapBlock),
        'This file mixes `### NODE_ID` prompt sections with a `node_prompts:` yaml map.',
      ),
    );
    return { form: 'headings', prompts: [] };
  }
  if (hasHeadings) return fromHeadings(source, section, sink, tools, readYaml);
  if (mapBlock) return fromYamlMap(source, mapBlock, sink, tools, readYaml);
  sink.push(
    diagnosticAt(
      source.file,
      'SOP025',
      section.headingSpan,
      `The ${quoted(`## ${section.heading}`)} section holds no \`### NODE_ID\` prompts and no \`node_prompts:\` yaml block, so the nodes have no prompts.`,
    ),
  );
  return { form: 'none', prompts: [] };
}

function fromHeadings(
  source: SourceText,
  section: MarkdownSection,
  sink: DiagnosticSink,
  tools: ReadonlySet<string>,
  readYaml: ReadYaml,
): NodePromptsResult {
  const prompts: ParsedPrompt[] = [];
  const children = section.children;
  for (let i = 0; i < children.length; i++) {
    const heading = children[i]!;
    if (heading.kind !== 'heading' || heading.depth !== 3) continue;
    let j = i + 1;
    while (j < children.length && !isPromptBoundary(children[j]!)) j++;
    const end = j < children.length ? children[j]!.start.offset : section.end;
    const first = j > i + 1 ? children[i + 1] : undefined;
    let textStart = heading.end.offset;
    let meta: Meta | null = null;
    if (first?.kind === 'code' && first.lang === 'yaml') {
      textStart = first.end.offset;
      const at = codeContentStart(first);
      const { block, problems } = readYaml(first.value, at.line, at.column);
      meta = readMeta(source.file, block, problems, headingMetaSchema, HEADING_KEYS, [], sink, tools);
    }
    prompts.push({
      nodeId: headingText(heading),
      span: spanOf(heading),
      prompt: source.text.slice(textStart, end).trim(),
      tools: meta?.tools ?? [],
      examples: meta?.examples ?? [],
      visitLimit: meta?.visitLimit ?? null,
      strayEscalateTo: meta?.strayEscalateTo ?? null,
      evidence: meta?.evidence ?? null,
      when: meta?.when ?? [],
      subflow: meta?.subflow ?? null,
      strayExits: meta?.strayExits ?? null,
      fork: meta?.fork ?? null,
      join: meta?.join ?? null,
    });
  }
  return { form: 'headings', prompts };
}

/** A `###` heading (or a higher one) ends a node's prompt; `####` and deeper belong to it. */
const isPromptBoundary = (block: MarkdownBlock) => block.kind === 'heading' && block.depth <= 3;

/** Whether a yaml block has a top-level-looking `node_prompts:` line (one pass, whatever the block holds). */
function hasNodePromptsKey(yaml: string): boolean {
  for (let start = 0; start < yaml.length; ) {
    const newline = yaml.indexOf('\n', start);
    const end = newline < 0 ? yaml.length : newline;
    let i = start;
    while (i < end && (yaml[i] === ' ' || yaml[i] === '\t')) i++;
    if (yaml.startsWith('node_prompts', i)) {
      i += 'node_prompts'.length;
      while (i < end && (yaml[i] === ' ' || yaml[i] === '\t')) i++;
      if (yaml[i] === ':') return true;
    }
    start = end + 1;
  }
  return false;
}

function fromYamlMap(
  source: SourceText,
  code: CodeBlock,
  sink: DiagnosticSink,
  tools: ReadonlySet<string>,
  readYaml: ReadYaml,
): NodePromptsResult {
  const at = codeContentStart(code);
  const { block, problems } = readYaml(code.value, at.line, at.column);
  for (const p of problems) sink.push(yamlProblem(source.file, p, 'The node_prompts block'));
  if (problems.length > 0) return { form: 'yaml-map', prompts: [] };
  const root = block.value as Record<string, unknown> | null;
  for (const key of Object.keys(root ?? {})) {
    if (key !== 'node_prompts') {
      sink.push(
        diagnosticAt(
          source.file,
          'SOP023',
          block.spanOf([key], { key: true }),
          `Unknown key ${quoted(key)} beside \`node_prompts\`.`,
          'The block holds a single key, `node_prompts`.',
        ),
      );
    }
  }
  const map = root?.node_prompts;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    sink.push(
      diagnosticAt(
        source.file,
        'SOP022',
        block.spanOf(['node_prompts']),
        '`node_prompts` must be a map from node id to `{tools, examples, prompt}`.',
        'Write `node_prompts:` and, indented below it, one `NODE_ID:` key per node.',
      ),
    );
    return { form: 'yaml-map', prompts: [] };
  }
  const prompts: ParsedPrompt[] = [];
  for (const [nodeId, entry] of Object.entries(map as Record<string, unknown>)) {
    const meta = readMetaValue(source.file, block, entry ?? {}, mapEntrySchema, MAP_KEYS, ['node_prompts', nodeId], sink, tools);
    prompts.push({
      nodeId,
      span: block.spanOf(['node_prompts', nodeId], { key: true }),
      prompt: (meta?.prompt ?? '').trim(),
      tools: meta?.tools ?? [],
      examples: meta?.examples ?? [],
      visitLimit: meta?.visitLimit ?? null,
      strayEscalateTo: meta?.strayEscalateTo ?? null,
      evidence: meta?.evidence ?? null,
      when: meta?.when ?? [],
      subflow: meta?.subflow ?? null,
      strayExits: meta?.strayExits ?? null,
      fork: meta?.fork ?? null,
      join: meta?.join ?? null,
    });
  }
  return { form: 'yaml-map', prompts };
}

/** A YAML problem of a node-prompt block: over a compiler limit (SOP092), or not usable YAML (SOP022). */
function yamlProblem(file: string, problem: YamlProblem, what: string): Diagnostic {
  return problem.kind === 'limit'
    ? diagnosticAt(file, 'SOP092', problem.span, `${what}: ${problem.message}`)
    : diagnosticAt(file, 'SOP022', problem.span, `${what} is not valid YAML: ${problem.message}`);
}

interface Meta {
  readonly tools: ParsedPrompt['tools'];
  readonly examples: readonly SopExample[];
  readonly visitLimit: ParsedVisitLimit | null;
  readonly strayEscalateTo: SourceSpan | null;
  readonly evidence: ParsedEvidence | null;
  readonly when: readonly ParsedWhen[];
  readonly subflow: ParsedSubflow | null;
  readonly strayExits: SourceSpan | null;
  readonly fork: ParsedFork | null;
  readonly join: ParsedJoin | null;
  readonly prompt?: string;
}

function readMeta(
  file: string,
  block: YamlBlock,
  problems: readonly YamlProblem[],
  schema: z.ZodType,
  keys: readonly string[],
  path: readonly (string | number)[],
  sink: DiagnosticSink,
  tools: ReadonlySet<string>,
): Meta | null {
  for (const p of problems) sink.push(yamlProblem(file, p, "The node's yaml block"));
  if (problems.length > 0) return null;
  return readMetaValue(file, block, block.value ?? {}, schema, keys, path, sink, tools);
}

function readMetaValue(
  file: string,
  block: YamlBlock,
  value: unknown,
  schema: z.ZodType,
  keys: readonly string[],
  path: readonly (string | number)[],
  sink: DiagnosticSink,
  tools: ReadonlySet<string>,
): Meta | null {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const known = suggester(keys);
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) {
        sink.push(
          diagnosticAt(
            file,
            'SOP023',
            block.spanOf([...path, key], { key: true }),
            `Unknown node prompt key ${quoted(key)}.`,
            known.suggestion(key, 'key'),
          ),
        );
      }
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const at = [...path, ...issue.path.filter((p): p is string | number => typeof p !== 'symbol')];
      sink.push(
        diagnosticAt(
          file,
          'SOP022',
          block.spanOf(at),
          `Node prompt key \`${issue.path.join('.') || '(root)'}\`: ${issue.message}.`,
          KEY_REMEDIATION.get(String(issue.path[0])),
        ),
      );
    }
    return null;
  }
  const data = parsed.data as {
    tools?: string[];
    examples?: SopExample[];
    max_visits?: number;
    escalate_to?: string;
    evidence?: z.output<typeof evidenceSchema>;
    when?: Map<string, unknown>;
    subflow?: string;
    exits?: Map<string, string>;
    fork?: string;
    join?: true | 'all' | 'any';
    prompt?: string;
  };
  const escalateTo = data.escalate_to === undefined ? null : { id: data.escalate_to, span: block.spanOf([...path, 'escalate_to']) };
  return {
    tools: (data.tools ?? []).map((name, i) => ({ name, span: block.spanOf([...path, 'tools', i]) })),
    examples: data.examples ?? [],
    visitLimit: data.max_visits === undefined ? null : { max: data.max_visits, span: block.spanOf([...path, 'max_visits']), escalateTo },
    strayEscalateTo: data.max_visits === undefined && escalateTo !== null ? escalateTo.span : null,
    evidence: data.evidence === undefined ? null : evidenceOf(file, block, [...path, 'evidence'], data.evidence, sink),
    when: [...(data.when ?? new Map<string, unknown>())].map(([target, text]) => ({
      target,
      span: block.spanOf([...path, 'when', target], { key: true }),
      condition: dataCondition(conditionAt(file, block, [...path, 'when', target], text, 'data', sink), tools),
    })),
    subflow:
      data.subflow === undefined
        ? null
        : {
            agent: data.subflow,
            span: block.spanOf([...path, 'subflow']),
            exits: [...(data.exits ?? new Map<string, string>())].map(([terminal, target]) => ({
              terminal,
              target,
              span: block.spanOf([...path, 'exits', terminal], { key: true }),
              targetSpan: block.spanOf([...path, 'exits', terminal]),
            })),
          },
    strayExits: data.subflow === undefined && data.exits !== undefined ? block.spanOf([...path, 'exits'], { key: true }) : null,
    fork: data.fork === undefined ? null : { join: data.fork, span: block.spanOf([...path, 'fork']) },
    join: data.join === undefined ? null : { strategy: data.join === true ? 'all' : data.join, span: block.spanOf([...path, 'join']) },
    ...(data.prompt !== undefined ? { prompt: data.prompt } : {}),
  };
}

function evidenceOf(
  file: string,
  block: YamlBlock,
  path: readonly (string | number)[],
  value: z.output<typeof evidenceSchema>,
  sink: DiagnosticSink,
): ParsedEvidence {
  const toolsAt = (names: readonly string[], at: readonly (string | number)[]) =>
    names.map((name, i) => ({ name, span: block.spanOf([...at, i]) }));
  if (value === true) return { span: block.spanOf(path), tools: null, about: null, fresh: false, shows: [] };
  if (Array.isArray(value)) return { span: block.spanOf(path), tools: toolsAt(value, path), about: null, fresh: false, shows: [] };
  // `shows: status == pending` (one condition, not a list) is read as a list of it.
  const showsPath = (i: number) => (Array.isArray(entryIn(block.value, [...path, 'shows'])) ? [...path, 'shows', i] : [...path, 'shows']);
  return {
    span: block.spanOf(path),
    tools: value.tools === undefined ? null : toolsAt(value.tools, [...path, 'tools']),
    about: value.about === undefined ? null : { name: value.about, span: block.spanOf([...path, 'about']) },
    fresh: value.fresh === true,
    shows: (value.shows ?? []).flatMap((text, i) => {
      const parsed = conditionAt(file, block, showsPath(i), text, 'answer', sink);
      if (parsed === null) return [];
      const { condition, span, spanOf } = parsed;
      const field = condition.reference;
      return [
        {
          field: field.map((s) => s.name),
          op: condition.op,
          values: condition.values,
          text: condition.text,
          span,
          fieldSpan: spanOf(field[0]!.start, field.at(-1)!.end),
        },
      ];
    }),
  };
}

/** A condition that parsed, with its span and a way to place its characters; null when it does not (SOP068, at what does not). */
interface PlacedCondition {
  readonly condition: ConditionSyntax;
  readonly span: SourceSpan;
  readonly spanOf: (start: number, end: number) => SourceSpan;
}

function conditionAt(
  file: string,
  block: YamlBlock,
  path: readonly (string | number)[],
  text: unknown,
  form: ConditionForm,
  sink: DiagnosticSink,
): PlacedCondition | null {
  const span = block.spanOf(path);
  const spanOf = (start: number, end: number) => block.spanWithin(path, start, end) ?? span;
  const example = form === 'data' ? 'get_order_details.status == pending' : 'status == pending';
  const remediation =
    `Write ${form === 'data' ? '`TOOL.FIELD OP VALUE`' : '`FIELD OP VALUE` (or a bare `FIELD`: it is there)'}, e.g. \`${example}\` or ` +
    `\`${form === 'data' ? 'get_order_details.' : ''}status in [pending, processed]\`.`;
  if (typeof text !== 'string' || text.trim() === '') {
    const found =
      typeof text === 'string'
        ? 'nothing'
        : text === null
          ? 'nothing (null)'
          : Array.isArray(text)
            ? 'a list'
            : typeof text === 'object'
              ? 'a map'
              : `\`${String(text)}\``;
    sink.push(diagnosticAt(file, 'SOP068', span, `Expected a condition written as text, found ${found}.`, remediation));
    return null;
  }
  const parsed = parseCondition(text, form);
  if (parsed.kind === 'ok') return { condition: parsed.condition, span, spanOf };
  sink.push(
    diagnosticAt(
      file,
      'SOP068',
      spanOf(parsed.start, parsed.end),
      `The condition ${quoted(text.trim())} does not parse: ${parsed.message}.`,
      remediation,
    ),
  );
  return null;
}

/** A `when` condition with its tool resolved: the longest frontmatter tool the reference starts with, else its first segment. */
function dataCondition(placed: PlacedCondition | null, tools: ReadonlySet<string>): ParsedDataCondition | null {
  if (placed === null) return null;
  const { condition, span, spanOf } = placed;
  const segments = condition.reference;
  let split = 1;
  for (let n = segments.length - 1; n > 1; n--) {
    if (
      tools.has(
        segments
          .slice(0, n)
          .map((s) => s.name)
          .join('.'),
      )
    ) {
      split = n;
      break;
    }
  }
  const toolSegments = segments.slice(0, split);
  const field = segments.slice(split);
  return {
    tool: { name: toolSegments.map((s) => s.name).join('.'), span: spanOf(toolSegments[0]!.start, toolSegments.at(-1)!.end) },
    field: field.map((s) => s.name),
    op: condition.op,
    values: condition.values,
    text: condition.text,
    span,
    fieldSpan: spanOf(field[0]!.start, field.at(-1)!.end),
  };
}

/** The plain value at `path`, own entries only. */
function entryIn(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
