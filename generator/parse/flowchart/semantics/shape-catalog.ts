/**
 * Mermaid 11's node shapes, as `@{ shape: … }` names them, and the node `type` each becomes. Mermaid (11.17.2,
 * `rendering-elements/shapes.ts`) accepts a shape's short name, its aliases, and a few undocumented names, all
 * lower case without `_`; several names draw the same shape. Our `type` is one name per drawn shape:
 * - the shapes of the classic syntax keep the names the classic syntax gives them (`A{x}` is a `rhombus`, and so
 *   is `@{ shape: diamond }`, `decision`, `question`, `diam`: a decision is whatever Mermaid draws as a rhombus,
 *   which includes the state diagram's `choice`);
 * - every other shape is Mermaid's shape name in kebab case (`Lined Cylinder` → `lined-cylinder`); Mermaid names
 *   two shapes "Curly Brace", so the right-hand one is `curly-brace-right`;
 * - the undocumented shapes keep their key (`state`, `note`, `composite`, `icon`, `anchor`).
 */
import type { NodeShape } from '../ast.js';

/** Each type with every name Mermaid accepts for it, the short name first. */
const CATALOG: readonly (readonly [NodeShape, readonly string[]])[] = [
  ['rectangle', ['rect', 'proc', 'process', 'rectangle']],
  ['round', ['rounded', 'event']],
  ['stadium', ['stadium', 'terminal', 'pill']],
  ['subroutine', ['fr-rect', 'subprocess', 'subproc', 'framed-rectangle', 'subroutine']],
  ['cylinder', ['cyl', 'db', 'database', 'cylinder']],
  ['data-store', ['datastore', 'data-store']],
  ['folder', ['folder', 'directory']],
  ['bucket', ['bucket']],
  ['console', ['console']],
  ['browser', ['browser']],
  ['person', ['person']],
  ['circle', ['circle', 'circ']],
  ['bang', ['bang']],
  ['cloud', ['cloud']],
  ['rhombus', ['diam', 'decision', 'diamond', 'question', 'choice']],
  ['hexagon', ['hex', 'hexagon', 'prepare']],
  ['parallelogram', ['lean-r', 'lean-right', 'in-out']],
  ['parallelogram-alt', ['lean-l', 'lean-left', 'out-in']],
  ['trapezoid', ['trap-b', 'priority', 'trapezoid-bottom', 'trapezoid']],
  ['trapezoid-alt', ['trap-t', 'manual', 'trapezoid-top', 'inv-trapezoid']],
  ['double-circle', ['dbl-circ', 'double-circle', 'doublecircle']],
  ['text', ['text']],
  ['notched-rectangle', ['notch-rect', 'card', 'notched-rectangle']],
  ['lined-rectangle', ['lin-rect', 'lined-rectangle', 'lined-process', 'lin-proc', 'shaded-process']],
  ['small-circle', ['sm-circ', 'start', 'small-circle']],
  ['framed-circle', ['fr-circ', 'stop', 'framed-circle']],
  ['filled-rectangle', ['fork', 'join']],
  ['hourglass', ['hourglass', 'collate']],
  ['curly-brace', ['brace', 'comment', 'brace-l']],
  ['curly-brace-right', ['brace-r']],
  ['curly-braces', ['braces']],
  ['lightning-bolt', ['bolt', 'com-link', 'lightning-bolt']],
  ['document', ['doc', 'document']],
  ['half-rounded-rectangle', ['delay', 'half-rounded-rectangle']],
  ['horizontal-cylinder', ['h-cyl', 'das', 'horizontal-cylinder']],
  ['lined-cylinder', ['lin-cyl', 'disk', 'lined-cylinder']],
  ['curved-trapezoid', ['curv-trap', 'curved-trapezoid', 'display']],
  ['divided-rectangle', ['div-rect', 'div-proc', 'divided-rectangle', 'divided-process']],
  ['triangle', ['tri', 'extract', 'triangle']],
  ['window-pane', ['win-pane', 'internal-storage', 'window-pane']],
  ['filled-circle', ['f-circ', 'junction', 'filled-circle']],
  ['trapezoidal-pentagon', ['notch-pent', 'loop-limit', 'notched-pentagon']],
  ['flipped-triangle', ['flip-tri', 'manual-file', 'flipped-triangle']],
  ['sloped-rectangle', ['sl-rect', 'manual-input', 'sloped-rectangle']],
  ['stacked-document', ['docs', 'documents', 'st-doc', 'stacked-document']],
  ['stacked-rectangle', ['st-rect', 'procs', 'processes', 'stacked-rectangle']],
  ['bow-tie-rectangle', ['bow-rect', 'stored-data', 'bow-tie-rectangle']],
  ['crossed-circle', ['cross-circ', 'summary', 'crossed-circle']],
  ['tagged-document', ['tag-doc', 'tagged-document']],
  ['tagged-rectangle', ['tag-rect', 'tagged-rectangle', 'tag-proc', 'tagged-process']],
  ['flag', ['flag', 'paper-tape']],
  ['asymmetric', ['odd']],
  ['lined-document', ['lin-doc', 'lined-document']],
  ['state', ['state']],
  ['note', ['note']],
  ['composite', ['composite']],
  ['icon', ['icon']],
  ['anchor', ['anchor']],
];

const BY_NAME: ReadonlyMap<string, NodeShape> = new Map(CATALOG.flatMap(([type, names]) => names.map((name) => [name, type] as const)));

/** Every name `@{ shape: … }` accepts, in catalog order. */
export const SHAPE_NAMES: readonly string[] = [...BY_NAME.keys()];

/** The node type of a shape name, or undefined when Mermaid has no such shape. */
export function shapeTypeOf(name: string): NodeShape | undefined {
  return BY_NAME.get(name);
}
