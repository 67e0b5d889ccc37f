/**
 * The node shapes of the classic syntax: which delimiter tokens open and close each one, and how delimiters are
 * spelled in messages. A shape is chosen by its opening tokens (longest first: `((` before `(`) and then, for the
 * parallelograms and trapezoids, by the closing token.
 */
import type { NodeShape } from '../ast.js';
import type { TokenKind } from '../scanner/token.js';

export interface ShapeSyntax {
  readonly open: readonly TokenKind[];
  readonly close: readonly TokenKind[];
  readonly shape: NodeShape;
}

/** Ordered so that a doubled opener is tried before the single one. */
const SHAPES: readonly ShapeSyntax[] = [
  { open: ['PS', 'PS'], close: ['PE', 'PE'], shape: 'circle' },
  { open: ['PS'], close: ['PE'], shape: 'round' },
  { open: ['DIAMOND_START', 'DIAMOND_START'], close: ['DIAMOND_STOP', 'DIAMOND_STOP'], shape: 'hexagon' },
  { open: ['DIAMOND_START'], close: ['DIAMOND_STOP'], shape: 'rhombus' },
  { open: ['SQS'], close: ['SQE'], shape: 'rectangle' },
  { open: ['STADIUMSTART'], close: ['STADIUMEND'], shape: 'stadium' },
  { open: ['SUBROUTINESTART'], close: ['SUBROUTINEEND'], shape: 'subroutine' },
  { open: ['CYLINDERSTART'], close: ['CYLINDEREND'], shape: 'cylinder' },
  { open: ['DOUBLECIRCLESTART'], close: ['DOUBLECIRCLEEND'], shape: 'double-circle' },
  { open: ['TAGEND'], close: ['SQE'], shape: 'asymmetric' },
  { open: ['TRAPSTART'], close: ['TRAPEND'], shape: 'trapezoid' },
  { open: ['TRAPSTART'], close: ['INVTRAPEND'], shape: 'parallelogram' },
  { open: ['INVTRAPSTART'], close: ['TRAPEND'], shape: 'parallelogram-alt' },
  { open: ['INVTRAPSTART'], close: ['INVTRAPEND'], shape: 'trapezoid-alt' },
  { open: ['ELLIPSE_START'], close: ['ELLIPSE_END'], shape: 'ellipse' },
];

/** The shapes an opening token may start, longest opener first. */
export const SHAPES_BY_OPENER: ReadonlyMap<TokenKind, readonly ShapeSyntax[]> = (() => {
  const map = new Map<TokenKind, ShapeSyntax[]>();
  for (const shape of SHAPES) {
    const kind = shape.open[0] as TokenKind;
    map.set(kind, [...(map.get(kind) ?? []), shape]);
  }
  return map;
})();

const SPELLING: Partial<Record<TokenKind, string>> = {
  PS: '(',
  PE: ')',
  SQS: '[',
  SQE: ']',
  DIAMOND_START: '{',
  DIAMOND_STOP: '}',
  STADIUMSTART: '([',
  STADIUMEND: '])',
  SUBROUTINESTART: '[[',
  SUBROUTINEEND: ']]',
  CYLINDERSTART: '[(',
  CYLINDEREND: ')]',
  DOUBLECIRCLESTART: '(((',
  DOUBLECIRCLEEND: ')))',
  TRAPSTART: '[/',
  INVTRAPSTART: '[\\',
  TRAPEND: '\\]',
  INVTRAPEND: '/]',
  TAGEND: '>',
  PIPE: '|',
  ELLIPSE_START: '(-',
  ELLIPSE_END: '-)',
};

/** How a delimiter token is written (`SQE` → `]`). */
export function spell(kind: TokenKind): string {
  return SPELLING[kind] ?? kind;
}

/** Whether a token kind opens a label (a shape delimiter or `|`). */
export function isLabelOpener(kind: TokenKind): boolean {
  return kind === 'PIPE' || kind === 'VERTEX_WITH_PROPS_START' || SHAPES_BY_OPENER.has(kind);
}
