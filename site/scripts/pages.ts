/**
 * The site's HTML pages from the repository's Markdown (docs/manifest.md, docs/rules/*.md,
 * docs/fix-migrate-convert.md): the same layout as in docs/, `.md` links become `.html`, every
 * heading gets a stable anchor (GitHub's slug, so links written for the repository keep
 * working), and each rule page's example opens in the playground. The documents are ours, but
 * the renderer lets through no HTML except the `<a id="…"></a>` anchors the reference is
 * generated with.
 */
import MarkdownIt from 'markdown-it';
import { playgroundFragment, type PlaygroundFormat } from '../src/fragment.js';
import { escapeHtml } from './layout.js';

export interface SitePage {
  /** Path of the page under the site's root, e.g. `rules/duplicate-key.html`. */
  path: string;
  title: string;
  body: string;
  /** Sections for the search index: heading, anchor and plain text. */
  sections: { heading: string; anchor: string; text: string }[];
}

/** GitHub's heading slug: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const ANCHOR_ONLY = /^<a id="([A-Za-z0-9_-]+)"><\/a>\s*$/;
const ANCHOR_OPENING = /^<a id="([A-Za-z0-9_-]+)">$/;

/**
 * Renders one Markdown file found at `sourcePath` (relative to docs/, e.g. `rules/x.md`).
 * `published` holds every docs path that becomes a page: links to others are kept as text.
 */
export function renderPage(sourcePath: string, markdown: string, published: ReadonlySet<string>): SitePage {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  const path = sourcePath.replace(/(^|\/)README\.md$/, '$1index.md').replace(/\.md$/, '.html');
  const depth = path.split('/').length - 1;
  const toRoot = '../'.repeat(depth);
  const playgroundHref = `${toRoot}playground/index.html`;

  // Raw HTML: only the generated reference's empty anchors pass; anything else shows as text. In a
  // paragraph Markdown hands the anchor over as two inline tokens, `<a id="…">` and `</a>`.
  md.renderer.rules.html_block = (tokens, index) => {
    const anchor = ANCHOR_ONLY.exec(tokens[index]!.content.trim());
    return anchor ? `<a id="${anchor[1]}"></a>\n` : escapeHtml(tokens[index]!.content);
  };
  md.renderer.rules.html_inline = (tokens, index) => {
    const content = tokens[index]!.content;
    const opening = ANCHOR_OPENING.exec(content);
    if (opening && tokens[index + 1]?.content === '</a>') return `<a id="${opening[1]}">`;
    if (content === '</a>' && ANCHOR_OPENING.test(tokens[index - 1]?.content ?? '')) return '</a>';
    return escapeHtml(content);
  };

  const usedAnchors = new Map<string, number>();
  const sections: SitePage['sections'] = [];
  let title = sourcePath;
  let examplesLinked = 0;
  md.core.ruler.push('site', (state) => {
    const tokens = state.tokens;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.type === 'heading_open') {
        const text = tokens[index + 1]!.children?.map((child) => child.content).join('') ?? '';
        const base = slug(text);
        const seen = usedAnchors.get(base) ?? 0;
        usedAnchors.set(base, seen + 1);
        const anchor = seen === 0 ? base : `${base}-${seen}`;
        token.attrSet('id', anchor);
        if (token.tag === 'h1' && title === sourcePath) title = text;
        sections.push({ heading: text, anchor, text: '' });
      } else if (token.type === 'inline' && sections.length > 0) {
        const section = sections[sections.length - 1]!;
        if (tokens[index - 1]?.type !== 'heading_open') section.text += ` ${token.content}`;
      }
      if (token.type === 'fence' && sections.length > 0) {
        sections[sections.length - 1]!.text += ` ${token.content}`;
        // The renderer runs after this walk: the fence remembers the section it is in.
        token.meta = { section: sections[sections.length - 1]!.heading };
      }
      for (const child of token.children ?? []) {
        if (child.type !== 'link_open') continue;
        const href = String(child.attrGet('href') ?? '');
        if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) continue;
        const [file, hash] = href.split('#', 2) as [string, string | undefined];
        const target = new URL(file, `file:///docs/${sourcePath}`).pathname.replace(/^\/docs\//, '');
        if (published.has(target)) {
          child.attrSet(
            'href',
            file.replace(/(^|\/)README\.md$/, '$1index.md').replace(/\.md$/, '.html') + (hash ? `#${hash}` : ''),
          );
        } else {
          // A repository file the site does not publish: the link text stays, the link goes.
          child.attrs = (child.attrs ?? []).filter(([name]) => name !== 'href');
          child.tag = 'span';
        }
      }
    }
    return true;
  });

  // A rule page's example (the first yaml or toml block of "## Example") opens in the playground.
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const html = fence(tokens, index, options, env, self);
    const language = token.info.trim().split(/\s+/)[0] as PlaygroundFormat | string;
    const inExample =
      (token.meta as { section?: string } | null)?.section === 'Example' && sourcePath.startsWith('rules/');
    if (!inExample || (language !== 'yaml' && language !== 'toml') || examplesLinked > 0) return html;
    // Limits in the info string (`maxBytes=64`) are the CLI's; the playground runs with its defaults.
    if (token.info.trim() !== language) return html;
    examplesLinked++;
    const href = `${playgroundHref}#${playgroundFragment(language, token.content)}`;
    return `${html}<p class="open-example"><a class="playground-link" href="${escapeHtml(href)}">Open this example in the playground</a></p>\n`;
  };

  const body = md.render(markdown);
  for (const section of sections) section.text = section.text.replace(/\s+/g, ' ').trim().slice(0, 2000);
  return { path, title, body, sections };
}
