/**
 * Zoom and pan for a flowchart Mermaid drew, shared by the runs page and `sop preview`: a 40-node SOP fitted to the
 * width draws its labels at a few pixels, so people must be able to come closer. The container scrolls (panning is
 * scrolling: a drag, the wheel, the scroll bars, the arrow keys once it has the focus), and zooming sets the drawing's
 * size in pixels from its natural size (its viewBox), keeping the point under the pointer where it is:
 *   - buttons − and + (by 1.25), 100 % (Mermaid's own size: 16 px labels), fit to the width, fit the whole chart;
 *   - Ctrl (or ⌘) + wheel, a trackpad's pinch (Chrome reports it so), Safari's gesture events, two fingers on a
 *     touch screen; the keys + − 0 (fit width) 1 (100 %) F (fit page);
 *   - a toggle that shows each node's id as a badge above its shape, drawn by the page (the SOP is not changed):
 *     six nodes labelled "End / Restart" are told apart by their ids.
 * A redraw of the same chart (the run moved on, the file was saved) keeps the zoom and the scroll; while a fit is
 * chosen, a redraw or a resize fits again. The container says where it stands: `data-scale`, `data-fit`.
 */

const STEP = 1.25;
const MIN_SCALE = 0.05;
const MAX_SCALE = 4;
/** Pixels a pointer moves before a press becomes a drag (a click on a node stays a click). */
const DRAG_THRESHOLD = 4;
const IDS_KEY = 'sop-diagram-ids';

type Fit = 'width' | 'page' | null;

export interface DiagramViewport {
  /** Takes over a drawing just put into the container: sizes it, badges its nodes with their ids. */
  adopt(svg: SVGSVGElement): void;
}

export function diagramViewport(container: HTMLElement): DiagramViewport {
  const state = {
    svg: null as SVGSVGElement | null,
    natural: { width: 0, height: 0 },
    scale: 1,
    /** The fit chosen, kept on redraws and resizes; null once the reader zoomed by hand. */
    fit: 'width' as Fit,
    /** Whether the reader chose a zoom yet: the first drawing fits the width, never above 100 %. */
    chosen: false,
    ids: readIdsChoice(),
  };

  const button = (text: string, title: string, data: Record<string, string>, act: () => void): HTMLButtonElement => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.title = title;
    for (const [key, value] of Object.entries(data)) b.dataset[key] = value;
    b.addEventListener('click', act);
    return b;
  };
  const label = document.createElement('span');
  label.className = 'zoom-level';
  const idsButton = button('ids', 'Show or hide the node ids (I)', { ids: '' }, () => showIds(!state.ids));
  const tools = document.createElement('div');
  tools.className = 'diagram-tools';
  tools.setAttribute('role', 'toolbar');
  tools.setAttribute('aria-label', 'Flowchart zoom');
  tools.append(
    button('−', 'Zoom out (−, or Ctrl + wheel)', { zoom: 'out' }, () => zoomBy(1 / STEP)),
    label,
    button('+', 'Zoom in (+, or Ctrl + wheel)', { zoom: 'in' }, () => zoomBy(STEP)),
    button('100 %', "Mermaid's own size (1)", { zoom: 'actual' }, () => zoomTo(1, null)),
    button('Fit width', 'Fit the chart to the width (0)', { zoom: 'width' }, () => fitTo('width')),
    button('Fit page', 'Show the whole chart (F)', { zoom: 'page' }, () => fitTo('page')),
    idsButton,
  );
  container.before(tools);
  container.tabIndex = 0;
  container.setAttribute('aria-label', 'Flowchart: drag or scroll to pan, Ctrl + wheel or pinch to zoom, + and − keys');
  container.classList.add('zoomable');

  function scaleFor(fitting: Exclude<Fit, null>): number {
    const { width, height } = state.natural;
    if (width === 0 || height === 0) return 1;
    const styles = getComputedStyle(container);
    const across = container.clientWidth - Number.parseFloat(styles.paddingLeft) - Number.parseFloat(styles.paddingRight);
    const down = container.clientHeight - Number.parseFloat(styles.paddingTop) - Number.parseFloat(styles.paddingBottom);
    // A container not laid out (a hidden panel) has no size to fit: keep the scale until it has one.
    if (across <= 0 || down <= 0) return state.scale;
    return fitting === 'width' ? across / width : Math.min(across / width, down / height);
  }

  /** Sets the drawing's size; the content point at `focus` (client coordinates) stays under it. */
  function zoomTo(scale: number, focus: { x: number; y: number } | null, fitting: Fit = null): void {
    const svg = state.svg;
    if (svg === null) return;
    state.fit = fitting;
    state.chosen = true;
    // Never smaller than the whole chart needs (a 400-node chart fits at 2 %), nor than 5 % otherwise.
    const next = Math.min(MAX_SCALE, Math.max(Math.min(MIN_SCALE, scaleFor('page')), scale));
    const box = container.getBoundingClientRect();
    const at = focus ?? { x: box.left + container.clientWidth / 2, y: box.top + container.clientHeight / 2 };
    const before = svg.getBoundingClientRect();
    const fx = before.width === 0 ? 0.5 : (at.x - before.left) / before.width;
    const fy = before.height === 0 ? 0.5 : (at.y - before.top) / before.height;
    size(next);
    const after = svg.getBoundingClientRect();
    container.scrollLeft += after.left + fx * after.width - at.x;
    container.scrollTop += after.top + fy * after.height - at.y;
  }

  function size(scale: number): void {
    const svg = state.svg!;
    state.scale = scale;
    const width = state.natural.width * scale;
    const height = state.natural.height * scale;
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.style.width = `${width}px`;
    svg.style.height = `${height}px`;
    svg.style.maxWidth = 'none';
    svg.style.maxHeight = 'none';
    container.dataset['scale'] = String(scale);
    container.dataset['fit'] = state.fit ?? '';
    label.textContent = `${Math.round(scale * 100)} %`;
  }

  const zoomBy = (factor: number, focus: { x: number; y: number } | null = null) => zoomTo(state.scale * factor, focus);
  const fitTo = (fitting: Exclude<Fit, null>) => {
    zoomTo(scaleFor(fitting), null, fitting);
    container.scrollLeft = 0;
    container.scrollTop = 0;
  };

  function showIds(on: boolean): void {
    state.ids = on;
    try {
      localStorage.setItem(IDS_KEY, on ? 'on' : 'off');
    } catch {
      // Storage may be off (a private window): the choice lasts the page.
    }
    container.classList.toggle('show-ids', on);
    idsButton.setAttribute('aria-pressed', String(on));
  }
  showIds(state.ids);

  // Ctrl/⌘ + wheel, and a trackpad's pinch (Chrome sends it as a wheel with ctrlKey): zoom at the pointer. A plain
  // wheel scrolls, which pans.
  container.addEventListener(
    'wheel',
    (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      zoomBy(Math.exp(-delta * 0.002), { x: event.clientX, y: event.clientY });
    },
    { passive: false },
  );
  // Safari's pinch on a trackpad.
  let gestureScale = 1;
  container.addEventListener('gesturestart', (event) => {
    event.preventDefault();
    gestureScale = 1;
  });
  container.addEventListener('gesturechange', (event) => {
    event.preventDefault();
    const scale = (event as Event & { scale?: number }).scale ?? 1;
    zoomBy(scale / gestureScale);
    gestureScale = scale;
  });

  // Drag to pan (mouse or one finger); two fingers pinch.
  const pointers = new Map<number, { x: number; y: number }>();
  let drag: { x: number; y: number; left: number; top: number; moved: boolean } | null = null;
  let pinch: number | null = null;
  const spread = () => {
    const [a, b] = [...pointers.values()];
    return a === undefined || b === undefined ? null : Math.hypot(a.x - b.x, a.y - b.y);
  };
  container.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || onScrollBar(event)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) {
      pinch = spread();
      drag = null;
      return;
    }
    drag = { x: event.clientX, y: event.clientY, left: container.scrollLeft, top: container.scrollTop, moved: false };
  });
  // The scroll bars are the container's too: a press there drags them, not the chart.
  const onScrollBar = (event: PointerEvent) => {
    const box = container.getBoundingClientRect();
    return (
      event.clientX - box.left - container.clientLeft > container.clientWidth ||
      event.clientY - box.top - container.clientTop > container.clientHeight
    );
  };
  container.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch !== null) {
      const now = spread();
      if (now !== null && pinch > 0) {
        const [a, b] = [...pointers.values()];
        zoomBy(now / pinch, { x: (a!.x + b!.x) / 2, y: (a!.y + b!.y) / 2 });
        pinch = now;
      }
      return;
    }
    if (drag === null) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!drag.moved) {
      drag.moved = true;
      container.setPointerCapture(event.pointerId);
      container.classList.add('dragging');
    }
    container.scrollLeft = drag.left - dx;
    container.scrollTop = drag.top - dy;
  });
  const release = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (drag?.moved) {
      // The click that ends a drag is not a click on a node.
      container.addEventListener('click', swallow, { capture: true, once: true });
      setTimeout(() => container.removeEventListener('click', swallow, { capture: true }), 0);
    }
    container.classList.remove('dragging');
    drag = null;
  };
  const swallow = (click: Event) => click.stopPropagation();
  container.addEventListener('pointerup', release);
  container.addEventListener('pointercancel', release);

  container.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const act: Record<string, () => void> = {
      '+': () => zoomBy(STEP),
      '=': () => zoomBy(STEP),
      '-': () => zoomBy(1 / STEP),
      '0': () => fitTo('width'),
      '1': () => zoomTo(1, null),
      f: () => fitTo('page'),
      i: () => showIds(!state.ids),
    };
    const run = act[event.key];
    if (run === undefined) return;
    event.preventDefault();
    run();
  });

  new ResizeObserver(() => {
    if (state.svg !== null && state.fit !== null) size(Math.min(state.chosen ? Infinity : 1, scaleFor(state.fit)));
  }).observe(container);

  return {
    adopt(svg) {
      const box = svg.viewBox.baseVal;
      const natural =
        box !== null && box.width > 0
          ? { width: box.width, height: box.height }
          : { width: svg.getBBox().width, height: svg.getBBox().height };
      const scroll = { left: container.scrollLeft, top: container.scrollTop };
      state.svg = svg;
      state.natural = natural;
      badgeNodes(svg);
      // A fit is made again for the new drawing (never above 100 % until the reader zooms); a zoom by hand is kept.
      size(state.fit === null ? state.scale : Math.min(state.chosen ? Infinity : 1, scaleFor(state.fit)));
      container.scrollLeft = scroll.left;
      container.scrollTop = scroll.top;
    },
  };
}

function readIdsChoice(): boolean {
  try {
    return localStorage.getItem(IDS_KEY) !== 'off';
  } catch {
    return true;
  }
}

const SVG = 'http://www.w3.org/2000/svg';

/** A small id badge above each node's shape (Mermaid names a node's group `…-flowchart-<id>-<n>`). */
function badgeNodes(svg: SVGSVGElement): void {
  for (const group of svg.querySelectorAll<SVGGElement>('g.node')) {
    const id = /-flowchart-(.+)-\d+$/.exec(group.id)?.[1];
    if (id === undefined) continue;
    const shape = group.getBBox();
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('class', 'sop-node-id');
    text.setAttribute('x', String(shape.x));
    text.setAttribute('y', String(shape.y - 3));
    text.textContent = id;
    group.append(text);
  }
}
