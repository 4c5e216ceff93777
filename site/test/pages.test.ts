/**
 * The built site's pages, read as files: every rule has its page, every link is relative and
 * lands on a file and an anchor that exist (so the site works under any base path), each rule
 * page's example opens in the playground with exactly the example's text, and every page
 * carries the Content-Security-Policy and loads no inline script.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '@svc-manifest/validator';
import { ruleUrl } from '@svc-manifest/schema';
import { readPlaygroundFragment } from '../src/fragment.js';
import { CONTENT_SECURITY_POLICY } from '../scripts/layout.js';
import { builtSite, REPO } from './support.js';

let site: Awaited<ReturnType<typeof builtSite>>;

beforeAll(async () => {
  site = await builtSite('https://example.org/svc/');
}, 120_000);

afterAll(() => site?.remove());

function htmlFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(prefix, entry.name);
    if (entry.isDirectory()) return htmlFiles(dir, path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

function attributes(html: string, name: 'href' | 'src' | 'id'): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => match[1]!.replace(/&amp;/g, '&'));
}

describe('the pages of the site', () => {
  // One address per rule page for every tool: the helper's URL, for the schemas the site serves, is a page it wrote.
  it('writes each rule page at the URL ruleUrl() gives for the schemas it serves, and Taplo links land on them', () => {
    const base = 'https://example.org/svc/';
    const served = JSON.parse(readFileSync(join(site.dir, 'manifest/svc.schema.json'), 'utf8')) as { $id: string };
    const onSite = (url: string) => {
      expect(url.startsWith(base), url).toBe(true);
      expect(existsSync(join(site.dir, ...url.slice(base.length).split('/'))), url).toBe(true);
    };
    for (const rule of RULES) onSite(ruleUrl(rule.id, served.$id));
    const links = [
      ...readFileSync(join(site.dir, 'manifest/svc.v2.schema.json'), 'utf8').matchAll(/"key": "([^"]+)"/g),
    ];
    expect(links.length).toBeGreaterThan(10);
    for (const [, url] of links) onSite(url!);
  });

  it('has a page for every rule, with the rule id as its title', () => {
    for (const rule of RULES) {
      const page = join(site.dir, 'rules', `${rule.id}.html`);
      expect(existsSync(page), rule.id).toBe(true);
      expect(readFileSync(page, 'utf8')).toContain(`<h1 id="${rule.id}">${rule.id}</h1>`);
    }
  });

  it('links only relatively, to files and anchors that exist', () => {
    const pages = htmlFiles(site.dir);
    expect(pages.length).toBeGreaterThan(50);
    const broken: string[] = [];
    for (const page of pages) {
      const html = readFileSync(join(site.dir, page), 'utf8');
      for (const link of [...attributes(html, 'href'), ...attributes(html, 'src')]) {
        if (link.startsWith('data:')) continue;
        if (/^[a-z]+:|^\/\//i.test(link) || link.startsWith('/')) {
          broken.push(`${page}: not relative: ${link}`);
          continue;
        }
        const [file, anchor] = link.split('#', 2) as [string, string | undefined];
        const target = file === '' ? page : posix.normalize(posix.join(posix.dirname(page), file));
        if (!existsSync(join(site.dir, target))) {
          broken.push(`${page}: no file ${target}`);
          continue;
        }
        if (anchor && target.endsWith('.html') && !target.startsWith('playground/')) {
          const ids = attributes(readFileSync(join(site.dir, target), 'utf8'), 'id');
          if (!ids.includes(anchor)) broken.push(`${page}: no anchor #${anchor} in ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("opens each rule page's example in the playground, with the example's text", () => {
    let opened = 0;
    for (const rule of RULES) {
      const markdown = readFileSync(join(REPO, 'docs/rules', `${rule.id}.md`), 'utf8');
      const section = markdown.split(/\n## /).find((part) => part.startsWith('Example\n')) ?? '';
      const example = /^```(yaml|toml)\n([\s\S]*?)^```/m.exec(section);
      const html = readFileSync(join(site.dir, 'rules', `${rule.id}.html`), 'utf8');
      const link = /<a class="playground-link" href="([^"]+)"/.exec(html);
      if (!example) {
        expect(link, rule.id).toBeNull();
        continue;
      }
      expect(link, rule.id).not.toBeNull();
      const href = link![1]!.replace(/&amp;/g, '&');
      expect(href.startsWith('../playground/index.html#'), href).toBe(true);
      expect(readPlaygroundFragment(href.slice(href.indexOf('#')))).toEqual({ format: example[1], text: example[2] });
      opened++;
    }
    expect(opened).toBeGreaterThan(40);
  });

  it('gives every page the Content-Security-Policy and no inline script or style', () => {
    for (const page of htmlFiles(site.dir)) {
      const html = readFileSync(join(site.dir, page), 'utf8');
      expect(html, page).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`);
      expect(html, page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(html, page).not.toMatch(/<style|\sstyle="|\son[a-z]+=/i);
    }
  });
});
