/**
 * The sanitiser for the HTML @codemirror/lsp-client makes from the server's Markdown (hovers,
 * completion documentation). That Markdown quotes names from the manifest, which may be a
 * stranger's, and Markdown passes raw HTML through. Two steps:
 *
 * 1. Every tag that is not one Markdown renders itself (paragraphs, emphasis, code, lists,
 *    highlighted code spans: no attribute but `class`) is turned into text before anything
 *    parses the HTML. Parsing alone is not harmless: Chromium reports (and some browsers fetch)
 *    what a parsed `<img onerror=…>` names even in an inert document. Links become text too:
 *    the playground opens no link a hover carries.
 * 2. DOMPurify, with the same allow-list, over what is left.
 */
import DOMPurify from 'dompurify';

const PLAIN_TAGS = 'p|br|hr|em|strong|del|code|pre|ul|ol|li|blockquote|h[1-6]|table|thead|tbody|tr|th|td';
const MARKDOWN_TAG = new RegExp(`^<(?:/?(?:${PLAIN_TAGS}|span)|(?:${PLAIN_TAGS}|span) class="[^"<>&]*")\\s*/?>$`, 'i');

function escapeText(text: string): string {
  return text
    .replace(/&(?![a-z]+;|#[0-9]+;|#x[0-9a-f]+;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** `html` with every tag outside the allow-list (and every stray `<`) as text. */
export function tagsAsText(html: string): string {
  return html
    .split(/(<[^<>]*>)/)
    .map((part) => (part.startsWith('<') && MARKDOWN_TAG.test(part) ? part : escapeText(part)))
    .join('');
}

export function sanitize(html: string): string {
  return DOMPurify.sanitize(tagsAsText(html), {
    ALLOWED_TAGS: [...PLAIN_TAGS.replace('h[1-6]', 'h1|h2|h3|h4|h5|h6').split('|'), 'span'],
    ALLOWED_ATTR: ['class'],
  });
}
