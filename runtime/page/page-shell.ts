/**
 * The page's HTML: a static shell with no data in it; `page.js` fetches the runs from the JSON API and follows
 * the event stream. Served with the headers of the toolkit's pages (`page-headers.ts`); its token form stays on
 * the page itself.
 */
import { ASSETS_PATH } from './page-paths.js';
import { pageHeaders } from './page-headers.js';

export const PAGE_HEADERS = pageHeaders("'self'");

export function pageShell(assetsMissing: boolean): string {
  const body = assetsMissing
    ? '<p class="problem">The page assets are missing: run <code>npm run build</code> (it copies Mermaid and the page script into dist/page/).</p>'
    : `<header>
  <h1>SOP runs</h1>
  <span id="connection" class="connection" data-state="connecting">connecting…</span>
</header>
<form id="token-form" hidden>
  <label>Page token <input id="token" type="password" autocomplete="off" required></label>
  <button type="submit">Show my runs</button>
  <p id="token-problem" class="problem"></p>
</form>
<main>
  <section class="runs">
    <table id="runs"><thead><tr><th>agent</th><th>step</th><th>status</th><th>last activity</th></tr></thead><tbody></tbody></table>
    <p id="no-runs" class="quiet" hidden>No runs yet: start one with load_graph.</p>
  </section>
  <section id="run" class="run" hidden>
    <h2 id="run-title"></h2>
    <p id="run-facts" class="quiet"></p>
    <div class="legend"><span class="visited">visited</span><span class="current">current</span><span class="traversed">moved along</span><span class="refused">refused move</span></div>
    <div id="diagram" class="diagram"></div>
    <div class="scrubber">
      <button id="step-back" type="button" title="previous step">◀</button>
      <input id="step" type="range" min="1" max="1" value="1">
      <button id="step-next" type="button" title="next step">▶</button>
      <button id="step-live" type="button">live</button>
      <span id="step-label"></span>
    </div>
    <section id="forks-panel" class="forks" aria-labelledby="forks-heading" hidden>
      <h3 id="forks-heading">Forks</h3>
      <div class="legend"><span class="branch-passed">branch passed</span><span class="branch-failed">branch failed</span><span class="branch-open">branch open</span></div>
      <ul id="forks" aria-live="polite"></ul>
      <p id="forks-note" class="quiet" hidden></p>
    </section>
    <div class="columns">
      <section><h3>Todos</h3><ul id="todos"></ul><p id="no-todos" class="quiet" hidden>No todos.</p></section>
      <section><h3>Audit log</h3><table id="audit"><thead><tr><th>#</th><th>tool</th><th>outcome</th><th>from → to</th><th>time</th></tr></thead><tbody></tbody></table></section>
    </div>
  </section>
</main>
<script src="${ASSETS_PATH}/mermaid.min.js"></script>
<script src="${ASSETS_PATH}/page.js"></script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SOP runs</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/page.css">
</head>
<body>
${body}
</body>
</html>
`;
}
