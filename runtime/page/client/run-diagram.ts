/**
 * Draws a run's flowchart with Mermaid (the copy served from /runs/assets, never a CDN) into its container. A
 * render takes tens of milliseconds and updates can arrive faster: renders run one at a time, and only the
 * newest pending one runs next, so the diagram always ends on the latest state. The drawing is handed to the
 * container's zoom and pan (`diagram-viewport.ts`), which keeps the reader's zoom across redraws. Mermaid's limits
 * are raised to the compiler's (2,500 edges, a 256 KB flowchart): every SOP that compiles can be drawn.
 */
import { diagramViewport } from './diagram-viewport.js';

interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

declare const mermaid: Mermaid;

export interface DiagramFacts {
  /** The agent whose flowchart is drawn (the runs page: inside a sub-flow, the called one). */
  readonly agent?: string;
  readonly currentNode: string | null;
  readonly step: number;
}

export interface RunDiagram {
  show(source: string, facts: DiagramFacts): void;
}

export function runDiagram(container: HTMLElement): RunDiagram {
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    theme: 'default',
    maxTextSize: 300_000,
    maxEdges: 3_000,
    flowchart: { useMaxWidth: false },
  });
  const viewport = diagramViewport(container);
  let next: { source: string; facts: DiagramFacts } | undefined;
  let drawing = false;
  let shown = '';
  let renders = 0;

  async function draw(): Promise<void> {
    drawing = true;
    while (next !== undefined) {
      const { source, facts } = next;
      next = undefined;
      try {
        if (source !== shown) {
          renders += 1;
          const { svg } = await mermaid.render(`sop-diagram-${renders}`, source);
          // Mermaid's output, sanitised by Mermaid itself (securityLevel strict): the flowchart is the author's.
          container.innerHTML = svg;
          const drawn = container.querySelector('svg');
          if (drawn !== null) viewport.adopt(drawn);
          shown = source;
        }
        container.dataset['agent'] = facts.agent ?? '';
        container.dataset['currentNode'] = facts.currentNode ?? '';
        container.dataset['step'] = String(facts.step);
        container.dataset['problem'] = '';
      } catch (error) {
        container.dataset['problem'] = error instanceof Error ? error.message : String(error);
        container.textContent = `Mermaid could not draw this flowchart: ${container.dataset['problem']}`;
        shown = '';
      }
    }
    drawing = false;
  }

  return {
    show(source, facts) {
      next = { source, facts };
      if (!drawing) void draw();
    },
  };
}
