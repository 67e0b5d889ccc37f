/**
 * What a link token means: its stroke and its two arrowheads. Follows Mermaid's reading of link text, including
 * its quirks (`<===` and `x==>` are drawn with a normal stroke; with inline text the opening `<--`, `x--` or
 * `o--` must agree with the closing arrowhead). Mermaid keeps a disagreeing link as an `INVALID` edge; we report
 * it instead (see `mismatch`).
 */
import type { ArrowHead, EdgeStroke } from '../ast.js';

export interface LinkType {
  readonly stroke: EdgeStroke;
  readonly arrowStart: ArrowHead;
  readonly arrowEnd: ArrowHead;
}

/** The opening and closing parts of `A <-- text --x B` do not agree: Mermaid draws no valid link. */
export interface LinkMismatch {
  readonly mismatch: true;
}

const HEADS: Readonly<Record<string, ArrowHead>> = { '>': 'point', x: 'cross', o: 'circle' };
const START_HEADS: Readonly<Record<string, ArrowHead>> = { '<': 'point', x: 'cross', o: 'circle' };

/**
 * @param closing the link token (`-->`, `-.->`, `==>`, `<-->`, `~~~` …, surrounding whitespace allowed).
 * @param opening for inline edge text, the token that opened it (`--`, `<--`, `-.`, `==` …).
 */
export function linkType(closing: string, opening?: string): LinkType | LinkMismatch {
  const end = closingPart(closing.trim());
  if (opening === undefined) return { stroke: end.stroke, arrowStart: end.double ? end.head : 'none', arrowEnd: end.head };
  const start = openingPart(opening.trim());
  if (start.stroke !== end.stroke) return { mismatch: true };
  if (start.head === 'none') return { stroke: end.stroke, arrowStart: end.double ? end.head : 'none', arrowEnd: end.head };
  if (end.double || start.head !== end.head) return { mismatch: true };
  return { stroke: end.stroke, arrowStart: start.head, arrowEnd: end.head };
}

function closingPart(text: string): { head: ArrowHead; double: boolean; stroke: EdgeStroke } {
  const last = text.charAt(text.length - 1);
  const head = HEADS[last] ?? 'none';
  let line = text.slice(0, -1);
  const opener = head === 'point' ? '<' : last;
  const double = head !== 'none' && text.startsWith(opener);
  if (double) line = line.slice(1);
  let stroke: EdgeStroke = 'normal';
  if (line.startsWith('=')) stroke = 'thick';
  if (line.startsWith('~')) stroke = 'invisible';
  if (line.includes('.')) stroke = 'dotted';
  return { head, double, stroke };
}

function openingPart(text: string): { head: ArrowHead; stroke: EdgeStroke } {
  const head = START_HEADS[text.charAt(0)] ?? 'none';
  const line = head === 'none' ? text : text.slice(1);
  let stroke: EdgeStroke = 'normal';
  if (line.includes('=')) stroke = 'thick';
  if (line.includes('.')) stroke = 'dotted';
  return { head, stroke };
}
