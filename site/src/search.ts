/**
 * The search box on every page: reads assets/search-index.json (built with the site, same
 * origin) on first use and lists the sections whose title and text hold every word typed.
 * Results are built as elements with text, never as HTML.
 */
interface Entry {
  title: string;
  url: string;
  text: string;
}

const root = document.documentElement.dataset.root ?? './';
let index: Promise<Entry[]> | undefined;

function load(): Promise<Entry[]> {
  return (index ??= fetch(`${root}assets/search-index.json`).then((response) => response.json() as Promise<Entry[]>));
}

/** Entries holding every word of `query`, title matches first. */
export function search(entries: Entry[], query: string, limit = 20): Entry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored: { entry: Entry; score: number }[] = [];
  for (const entry of entries) {
    const title = entry.title.toLowerCase();
    const text = entry.text.toLowerCase();
    let score = 0;
    for (const word of words) {
      if (title.includes(word)) score += 10;
      else if (text.includes(word)) score += 1;
      else {
        score = 0;
        break;
      }
    }
    if (score > 0) scored.push({ entry, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.entry);
}

function attach(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[name="q"]');
  const list = form.querySelector<HTMLOListElement>('.search-results');
  if (!input || !list) return;
  form.addEventListener('submit', (event) => event.preventDefault());
  input.addEventListener('input', () => {
    const query = input.value;
    void load().then((entries) => {
      if (input.value !== query) return;
      const found = search(entries, query);
      list.replaceChildren(
        ...found.map((entry) => {
          const item = document.createElement('li');
          const link = document.createElement('a');
          link.href = `${root}${entry.url}`;
          link.textContent = entry.title;
          item.append(link);
          return item;
        }),
      );
      list.hidden = found.length === 0;
    });
  });
}

for (const form of document.querySelectorAll<HTMLFormElement>('form.site-search')) attach(form);
