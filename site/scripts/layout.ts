/**
 * The one page frame of the site, and the Content-Security-Policy every page ships (in a
 * `<meta>` for hosts that cannot set headers, and as a header in `_headers`/`serve.json`).
 */

/**
 * No inline script or style, no `eval`, nothing from another origin: the playground renders a
 * stranger's manifest, and this makes any markup that slipped through inert.
 * (`frame-ancestors` is header-only: a `<meta>` CSP ignores it with a console error.)
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export const HEADER_ONLY_POLICY = "; frame-ancestors 'none'";

/** `text` for HTML text and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface LayoutOptions {
  /** The page's path under the site's root (e.g. `rules/x.html`): links are made relative to it. */
  path: string;
  title: string;
  body: string;
  /** Scripts of the site's own (under assets/), loaded as modules. */
  scripts?: string[];
  styles?: string[];
  bodyClass?: string;
}

export function layout({ path, title, body, scripts = [], styles = [], bodyClass }: LayoutOptions): string {
  const toRoot = '../'.repeat(path.split('/').length - 1) || './';
  const link = (target: string) => `${toRoot === './' ? '' : toRoot}${target}`;
  const scriptTags = ['assets/search.js', ...scripts]
    .map((script) => `<script type="module" src="${link(script)}"></script>`)
    .join('\n    ');
  const styleTags = ['assets/site.css', ...styles]
    .map((style) => `<link rel="stylesheet" href="${link(style)}">`)
    .join('\n    ');
  return `<!doctype html>
<html lang="en" data-root="${toRoot}">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${escapeHtml(title)} · svc manifest</title>
    <link rel="icon" href="data:,">
    ${styleTags}
    ${scriptTags}
  </head>
  <body${bodyClass ? ` class="${bodyClass}"` : ''}>
    <header class="site-header">
      <nav>
        <a href="${link('index.html')}">svc manifest</a>
        <a href="${link('playground/index.html')}">Playground</a>
        <a href="${link('manifest.html')}">Reference</a>
        <a href="${link('rules/index.html')}">Rules</a>
      </nav>
      <form class="site-search" role="search">
        <input type="search" name="q" placeholder="Search the reference and rules" aria-label="Search" autocomplete="off">
        <ol class="search-results" hidden></ol>
      </form>
    </header>
    <main>
${body}
    </main>
  </body>
</html>
`;
}
