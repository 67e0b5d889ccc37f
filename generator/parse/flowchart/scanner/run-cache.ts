/**
 * Remembers the last run of characters of one class the scanner measured. Mermaid's rules start with `\s*` and
 * are tried at every token start; measuring the same run of spaces again for each of them (and again one
 * character later) would make a long run quadratic. With the cache each run is measured once: the scanner only
 * moves forward, and when it jumps back (error recovery) the run is measured afresh.
 */
export class RunCache {
  #from = -1;
  #end = -1;

  constructor(
    private readonly text: string,
    private readonly accept: (code: number) => boolean,
  ) {}

  /** The offset of the first character at or after `from` that is not in the class. */
  end(from: number): number {
    if (from >= this.#from && from <= this.#end) return this.#end;
    let p = from;
    const text = this.text;
    while (p < text.length && this.accept(text.charCodeAt(p))) p++;
    this.#from = from;
    this.#end = p;
    return p;
  }
}
