/**
 * The `calculate` tool's arithmetic: a small recursive-descent parser over numbers, `+ - * /`, unary signs and
 * parentheses, evaluated in IEEE doubles and rounded to two decimals the way Python's `round(x, 2)` rounds (what
 * τ²-bench's tool does): to the nearest value of the double's exact decimal expansion, ties to even.
 *
 * Nothing is ever evaluated as code: the input is tokenised character by character, and anything outside the
 * grammar is a refusal naming the position. Python's `**` and `//`, which τ²-bench's `eval` would accept, are
 * refused with a message saying so.
 *
 *   expression := term (('+' | '-') term)*
 *   term       := unary (('*' | '/') unary)*
 *   unary      := ('+' | '-') unary | primary
 *   primary    := number | '(' expression ')'
 *   number     := digits ['.' digits?] | '.' digits
 */
import { type Outcome, ok, refuse } from './outcome.js';

/** Longest accepted expression, and deepest nesting of parentheses and signs: a bound on work and on the stack. */
export const MAX_EXPRESSION_LENGTH = 1000;
const MAX_DEPTH = 200;

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'op'; readonly op: string; readonly at: number };

export function calculate(expression: string): Outcome<number> {
  if (expression.length > MAX_EXPRESSION_LENGTH) return refuse(`The expression is longer than ${MAX_EXPRESSION_LENGTH} characters.`);
  const tokens = tokenize(expression);
  if (!tokens.ok) return tokens;
  if (tokens.value.length === 0) return refuse('The expression is empty: give numbers and the operators + - * / with parentheses.');
  const value = new Parser(tokens.value).parse();
  if (!value.ok) return value;
  if (!Number.isFinite(value.value)) return refuse('The result is too large to represent.');
  return ok(roundLikePython(value.value));
}

function tokenize(text: string): Outcome<Token[]> {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
    } else if ('+-*/()'.includes(c)) {
      tokens.push({ kind: 'op', op: c, at: i });
      i++;
    } else if (isDigit(c) || c === '.') {
      const start = i;
      while (i < text.length && isDigit(text[i] as string)) i++;
      if (text[i] === '.') {
        i++;
        while (i < text.length && isDigit(text[i] as string)) i++;
      }
      const literal = text.slice(start, i);
      if (literal === '.') return refuse(`A lone "." at position ${start + 1} is not a number.`);
      if (text[i] === '.') return refuse(`The number at position ${start + 1} has a second decimal point.`);
      tokens.push({ kind: 'number', value: Number(literal), at: start });
    } else {
      return refuse(
        `Invalid character ${JSON.stringify(c)} at position ${i + 1}: only digits, ".", spaces, parentheses and + - * / are allowed.`,
      );
    }
  }
  return ok(tokens);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

class Parser {
  private next = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Outcome<number> {
    const value = this.expression();
    if (!value.ok) return value;
    const extra = this.tokens[this.next];
    if (extra !== undefined) return refuse(`Unexpected ${describe(extra)} at position ${extra.at + 1}.`);
    return value;
  }

  private expression(): Outcome<number> {
    let left = this.term();
    while (left.ok) {
      const op = this.peekOp('+', '-');
      if (op === undefined) break;
      const right = this.term();
      if (!right.ok) return right;
      left = ok(op === '+' ? left.value + right.value : left.value - right.value);
    }
    return left;
  }

  private term(): Outcome<number> {
    let left = this.unary();
    while (left.ok) {
      const token = this.tokens[this.next];
      const op = this.peekOp('*', '/');
      if (op === undefined) break;
      const right = this.unary();
      if (!right.ok) return right;
      if (op === '/' && right.value === 0) return refuse(`Division by zero at position ${(token?.at ?? 0) + 1}.`);
      left = ok(op === '*' ? left.value * right.value : left.value / right.value);
    }
    return left;
  }

  private unary(): Outcome<number> {
    const op = this.peekOp('+', '-');
    if (op === undefined) return this.primary();
    return this.nested(() => {
      const operand = this.unary();
      return operand.ok && op === '-' ? ok(-operand.value) : operand;
    });
  }

  private primary(): Outcome<number> {
    const token = this.tokens[this.next];
    if (token === undefined) return refuse('The expression ends where a number or "(" was expected.');
    if (token.kind === 'number') {
      this.next++;
      return ok(token.value);
    }
    if (token.op === '(') {
      this.next++;
      return this.nested(() => {
        const inner = this.expression();
        if (!inner.ok) return inner;
        const close = this.tokens[this.next];
        if (close?.kind !== 'op' || close.op !== ')') {
          return refuse(
            close === undefined ? 'A "(" is never closed.' : `Expected ")" at position ${close.at + 1}, found ${describe(close)}.`,
          );
        }
        this.next++;
        return inner;
      });
    }
    const previous = this.tokens[this.next - 1];
    if ((token.op === '*' || token.op === '/') && previous?.kind === 'op' && previous.op === token.op) {
      return refuse(`"${token.op}${token.op}" at position ${previous.at + 1} is not supported: use only + - * / and parentheses.`);
    }
    return refuse(`Unexpected ${describe(token)} at position ${token.at + 1}: a number or "(" was expected.`);
  }

  private nested(parse: () => Outcome<number>): Outcome<number> {
    if (++this.depth > MAX_DEPTH) return refuse(`The expression nests deeper than ${MAX_DEPTH} levels.`);
    const value = parse();
    this.depth--;
    return value;
  }

  private peekOp(a: string, b: string): string | undefined {
    const token = this.tokens[this.next];
    if (token?.kind !== 'op' || (token.op !== a && token.op !== b)) return undefined;
    this.next++;
    return token.op;
  }
}

function describe(token: Token): string {
  return token.kind === 'number' ? `number ${token.value}` : `"${token.op}"`;
}

/**
 * Python's `round(x, 2)`: the decimal with two places nearest to the exact value of the double `x`, ties to even.
 * `toFixed` already rounds the exact value (ties away from zero); a double can only lie exactly halfway between two
 * cents when it is a multiple of 1/8 (an odd multiple of 0.005 with a finite binary expansion), so only those need
 * the tie rule. For them `x * 100` is exact.
 */
export function roundLikePython(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 50) return x;
  if (Number.isInteger(x * 8)) {
    const cents = x * 100;
    const floor = Math.floor(cents);
    if (cents - floor !== 0.5) return x;
    return (floor % 2 === 0 ? floor : floor + 1) / 100;
  }
  return Number(x.toFixed(2));
}
