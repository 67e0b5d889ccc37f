/**
 * What a node's `@{ … }` shape data sets, by Mermaid 11's rules (`FlowDB.addVertex`): `shape` must name one of
 * its shapes, in lower case; `label` replaces the label when it is not empty, read as markdown unless `labelType`
 * says `string` or `text`; `icon` or `img` without a label leaves a node that still shows its id with no text.
 * `form`, `pos`, `constraint`, `w` and `h` only change the drawing. Other keys Mermaid ignores: we warn (SOP019),
 * since a typo (`lable:`) would otherwise pass unseen.
 *
 * Mermaid tests properties for JavaScript truthiness (`if (doc.label)`), and so do we. Where Mermaid's parser
 * accepts what its renderer then fails on, we say so: a label that is a number or `true` is kept as text with a
 * warning (SOP018); a list or a map as label is an error. Offsets are in the shape data text.
 */
import { suggester } from '../../../diagnostics/closest-match.js';
import type { LabelType, NodeShape } from '../ast.js';
import { shapeTypeOf, SHAPE_NAMES } from './shape-catalog.js';
import type { ShapeDataEntry } from './shape-data.js';

export interface NodeProperties {
  readonly shape?: NodeShape;
  readonly label?: { readonly value: string; readonly type: LabelType; readonly start: number; readonly end: number };
  /** `icon` or `img` without a label: Mermaid blanks the label of a node that still shows its id. */
  readonly blanksIdLabel: boolean;
  readonly findings: readonly Finding[];
}

export interface Finding {
  readonly code: 'SOP012' | 'SOP018' | 'SOP019';
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly remediation?: string;
}

/** The keys Mermaid reads from a node's shape data. */
export const NODE_KEYS: readonly string[] = ['shape', 'label', 'labelType', 'icon', 'form', 'pos', 'img', 'constraint', 'w', 'h'];

const LABEL_TYPES: ReadonlySet<string> = new Set(['markdown', 'string', 'text']);

/** @param reveal turns the hidden entity codes of a string value into what the reader sees. */
export function nodeProperties(entries: readonly ShapeDataEntry[], reveal: (text: string) => string): NodeProperties {
  const findings: Finding[] = [];
  const byKey = new Map(entries.map((e) => [e.key, e]));
  let shape: NodeShape | undefined;
  const shapeEntry = byKey.get('shape');
  if (shapeEntry?.value) {
    const found = readShape(shapeEntry);
    if ('problem' in found) findings.push(found.problem);
    else shape = found.shape;
  }
  const labelEntry = byKey.get('label');
  const labelType = byKey.get('labelType')?.value;
  const type: LabelType = typeof labelType === 'string' && LABEL_TYPES.has(labelType) ? (labelType as LabelType) : 'markdown';
  const visual = Boolean(byKey.get('icon')?.value) || Boolean(byKey.get('img')?.value);
  let label: NodeProperties['label'];
  if (visual && labelEntry && labelEntry.value !== null && typeof labelEntry.value !== 'string') {
    // Mermaid calls `label.trim()` on an icon or image node, and fails on anything but text.
    findings.push({
      code: 'SOP012',
      ...valueSpan(labelEntry),
      message: 'The label of a node with an icon or an image must be text',
      remediation: quoteIt(labelEntry.value),
    });
  } else if (labelEntry?.value) {
    const text = labelValue(labelEntry, findings);
    if (text !== undefined) label = { value: reveal(text), type, start: labelEntry.valueStart, end: labelEntry.valueEnd };
  }
  const blankLabel = labelEntry === undefined || typeof labelEntry.value !== 'string' || labelEntry.value.trim() === '';
  for (const entry of entries) {
    if (NODE_KEYS.includes(entry.key)) continue;
    const near = entry.key.length <= 40 ? suggester(NODE_KEYS).closest(entry.key) : undefined;
    findings.push({
      code: 'SOP019',
      start: entry.keyStart,
      end: entry.keyEnd,
      message: `Mermaid ignores the key '${entry.key}' in a node's shape data`,
      remediation: near ? `Did you mean '${near}'?` : `The keys Mermaid reads are ${NODE_KEYS.map((k) => `'${k}'`).join(', ')}.`,
    });
  }
  const base = { blanksIdLabel: visual && label === undefined && blankLabel, findings };
  return { ...base, ...(shape === undefined ? {} : { shape }), ...(label === undefined ? {} : { label }) };
}

function readShape(entry: ShapeDataEntry): { shape: NodeShape } | { problem: Finding } {
  const at = valueSpan(entry);
  const { value } = entry;
  if (typeof value !== 'string') {
    return { problem: { code: 'SOP012', ...at, message: 'The shape must be a name, such as diamond or rect', remediation: SHAPE_HINT } };
  }
  const type = shapeTypeOf(value);
  if (type) return { shape: type };
  const lower = value.toLowerCase().replaceAll('_', '-');
  const near = value.length <= 40 ? (shapeTypeOf(lower) ? lower : suggester(SHAPE_NAMES).closest(value)) : undefined;
  const why = value !== value.toLowerCase() || value.includes('_') ? ': shape names are lower case, with - between words' : '';
  return {
    problem: {
      code: 'SOP012',
      ...at,
      message: `Mermaid has no shape '${clip(value)}'${why}`,
      remediation: near ? `Did you mean '${near}'?` : SHAPE_HINT,
    },
  };
}

const SHAPE_HINT = "Use one of Mermaid's shape names: rect, rounded, stadium, diamond, hex, circle, cyl, doc … (see Mermaid's docs).";

function labelValue(entry: ShapeDataEntry, findings: Finding[]): string | undefined {
  const { value } = entry;
  if (typeof value === 'string') return value;
  const at = valueSpan(entry);
  const remediation = quoteIt(value);
  if (typeof value === 'number' || typeof value === 'boolean') {
    const message = `The label ${String(value)} is not text: Mermaid 11 reads it but fails to draw the chart`;
    findings.push({ code: 'SOP018', ...at, message, remediation });
    return String(value);
  }
  findings.push({ code: 'SOP012', ...at, message: 'The label must be text, not a list or a map', remediation });
  return undefined;
}

function valueSpan(entry: ShapeDataEntry): { start: number; end: number } {
  return { start: entry.valueStart, end: Math.max(entry.valueEnd, entry.valueStart + 1) };
}

function quoteIt(value: unknown): string {
  return `Quote the label: label: "${typeof value === 'object' ? '…' : String(value)}".`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
