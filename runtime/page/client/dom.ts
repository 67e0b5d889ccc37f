/**
 * Small DOM helpers for the page script: find an element the shell must have, and build elements whose text is
 * always set as text (run data such as todo contents and audit inputs never reaches innerHTML).
 */

export function required<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page shell has no #${id}`);
  return element as T;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { readonly text?: string; readonly className?: string; readonly title?: string; readonly data?: Record<string, string> } = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = options.text;
  if (options.className !== undefined) node.className = options.className;
  if (options.title !== undefined) node.title = options.title;
  for (const [key, value] of Object.entries(options.data ?? {})) node.dataset[key] = value;
  node.append(...children);
  return node;
}

/** "4 s ago", "12 min ago", "3 h ago", else the local date and time. */
export function ago(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toLocaleString();
}

export function clock(at: number): string {
  return new Date(at).toLocaleTimeString();
}
