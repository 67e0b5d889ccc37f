/**
 * The preview's HTML: a static shell with no data in it (the script fetches the SOP's view and follows the event
 * stream), served with the headers of the toolkit's pages (`runtime/page/page-headers.ts`), forms not allowed.
 */
import { pageHeaders } from '../../runtime/page/page-headers.js';

export const PAGE_HEADERS = pageHeaders("'none'");

export function previewPage(file: string): string {
  const attribute = file.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SOP preview</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/preview.css">
</head>
<body data-file="${attribute}">
<header>
  <h1>SOP preview</h1>
  <select id="file" aria-label="SOP file"></select>
  <span id="summary" class="quiet"></span>
  <span id="connection" class="connection" data-state="connecting">connecting…</span>
</header>
<main>
  <section class="chart">
    <p id="stale" class="banner" hidden></p>
    <div class="legend"><span class="error">error</span><span class="warning">warning</span><span class="visited">walked</span><span class="current">current</span></div>
    <div id="diagram" class="diagram"></div>
  </section>
  <aside>
    <section>
      <h2>Problems</h2>
      <ul id="problems" class="problems"></ul>
      <p id="no-problems" class="quiet" hidden>No problems: the SOP compiles cleanly.</p>
    </section>
    <section id="details" class="details" hidden></section>
    <section>
      <h2>Walk</h2>
      <p class="quiet">Plays <code>goto_node</code> from the entry node through the server's own tool, legal moves only.</p>
      <div class="walk-buttons"><button id="walk-start" type="button">Start at the entry node</button><button id="walk-back" type="button" disabled>Undo</button></div>
      <p id="walk-problem" class="problem" hidden></p>
      <p id="tokenizer" class="quiet" hidden></p>
      <ol id="walk" class="walk"></ol>
      <div id="next" class="next"></div>
    </section>
  </aside>
</main>
<script src="/assets/mermaid.min.js"></script>
<script src="/assets/preview.js"></script>
</body>
</html>
`;
}
