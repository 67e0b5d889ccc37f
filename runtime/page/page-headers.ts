/**
 * The response headers of the toolkit's pages (the runs page and `sop preview`): a content security policy that
 * allows nothing but the server's own scripts (Mermaid draws its SVG with inline styles, hence `style-src
 * 'unsafe-inline'`), no framing, no referrer, no sniffing, no caching. `formAction`: where a form may post (the
 * runs page's token form stays on the page; the preview has no form).
 */
export function pageHeaders(formAction: "'self'" | "'none'"): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
}
