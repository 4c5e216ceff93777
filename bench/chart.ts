/**
 * A hand-written SVG chart: latency by manifest size, one panel per measurement
 * (edit → diagnostics, completion, hover), log-scale milliseconds, one line per server,
 * median points with min–max whiskers.
 */
import type { ServerResult, Stat } from './lsp-harness.ts';

export interface Series {
  label: string;
  color: string;
  dashed?: boolean;
  /** One stat per size, in the order of `sizes`. */
  points: (Stat | undefined)[];
}

export interface Panel {
  title: string;
  series: Series[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (ms: number) =>
  ms >= 1000
    ? `${(ms / 1000).toFixed(ms >= 10000 ? 0 : 1)} s`
    : ms >= 10
      ? `${Math.round(ms)}`
      : ms >= 1
        ? ms.toFixed(1)
        : ms.toFixed(2);

export function renderChart(sizes: string[], panels: Panel[], caption: string): string {
  const pw = 300;
  const ph = 260;
  const left = 56;
  const top = 62;
  const gap = 40;
  const width = left + panels.length * (pw + gap) + 10;
  const legendY = top + ph + 52;
  const allSeries = panels[0]?.series ?? [];
  const height = legendY + 24 * Math.ceil(allSeries.length / 3) + 30;
  let values = panels.flatMap((p) =>
    p.series.flatMap((s) => s.points.flatMap((pt) => (pt ? [pt.min, pt.max, pt.median] : []))),
  );
  values = values.filter((v) => Number.isFinite(v) && v > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...values, 1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values, 10))));
  const y = (ms: number) =>
    top + ph - ((Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * ph;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  out.push(`<text x="${left}" y="22" font-size="15" font-weight="bold">${esc(caption)}</text>`);
  panels.forEach((panel, index) => {
    const x0 = left + index * (pw + gap);
    const x = (i: number) => x0 + 36 + (i * (pw - 72)) / Math.max(1, sizes.length - 1);
    out.push(`<g>`);
    out.push(
      `<text x="${x0 + pw / 2}" y="${top - 12}" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>`,
    );
    out.push(`<rect x="${x0}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
    for (let decade = lo; decade <= hi; decade *= 10) {
      const yy = y(decade);
      out.push(`<line x1="${x0}" x2="${x0 + pw}" y1="${yy}" y2="${yy}" stroke="#e3e3e3"/>`);
      out.push(`<text x="${x0 - 4}" y="${yy + 4}" text-anchor="end" fill="#555">${fmt(decade)}</text>`);
    }
    sizes.forEach((size, i) => {
      out.push(`<text x="${x(i)}" y="${top + ph + 16}" text-anchor="middle" fill="#333">${esc(size)}</text>`);
    });
    panel.series.forEach((series, seriesIndex) => {
      const pts = series.points
        .map((p, i) => (p && Number.isFinite(p.median) ? { x: x(i), p } : null))
        .filter((p): p is { x: number; p: Stat } => p !== null);
      if (pts.length === 0) return;
      out.push(
        `<polyline fill="none" stroke="${series.color}" stroke-width="2"${series.dashed ? ' stroke-dasharray="5 4"' : ''} points="${pts.map((p) => `${p.x.toFixed(1)},${y(p.p.median).toFixed(1)}`).join(' ')}"/>`,
      );
      for (const { x: px, p } of pts) {
        out.push(
          `<line x1="${px}" x2="${px}" y1="${y(p.min).toFixed(1)}" y2="${y(p.max).toFixed(1)}" stroke="${series.color}" stroke-width="1"/>`,
        );
        out.push(
          `<circle cx="${px}" cy="${y(p.median).toFixed(1)}" r="3.5" fill="${series.color}"><title>${esc(series.label)}: median ${fmt(p.median)} ms (min ${fmt(p.min)}, max ${fmt(p.max)})</title></circle>`,
        );
        // Labels: first series above right, second below right, third above left (fewer collisions).
        const dx = seriesIndex === 2 ? -6 : 6;
        const dy = seriesIndex === 1 ? 14 : -5;
        out.push(
          `<text x="${px + dx}" y="${(y(p.median) + dy).toFixed(1)}" fill="${series.color}" font-size="10"${dx < 0 ? ' text-anchor="end"' : ''}>${fmt(p.median)}</text>`,
        );
      }
    });
    out.push(`</g>`);
  });
  out.push(
    `<text x="${left}" y="${top + ph + 34}" fill="#555">manifest size (lines); y: milliseconds, log scale; dots: median, whiskers: min–max</text>`,
  );
  allSeries.forEach((series, i) => {
    const lx = left + (i % 3) * 260;
    const ly = legendY + Math.floor(i / 3) * 24;
    out.push(
      `<line x1="${lx}" x2="${lx + 28}" y1="${ly}" y2="${ly}" stroke="${series.color}" stroke-width="2"${series.dashed ? ' stroke-dasharray="5 4"' : ''}/>`,
    );
    out.push(`<text x="${lx + 34}" y="${ly + 4}">${esc(series.label)}</text>`);
  });
  out.push(`</svg>`);
  return out.join('\n') + '\n';
}

/** One line of the chart: a server on the manifests named `${manifestPrefix}${size}` (prefix `toml-` for the TOML renderings). */
export interface SeriesSpec {
  name: string;
  label: string;
  color: string;
  dashed?: boolean;
  manifestPrefix?: string;
}

export function latencyPanels(sizes: string[], results: ServerResult[], servers: SeriesSpec[]): Panel[] {
  const find = (server: SeriesSpec, size: string) =>
    results.find((r) => r.server === server.name && r.manifest === `${server.manifestPrefix ?? ''}${size}`);
  const panel = (title: string, pick: (r: ServerResult) => Stat): Panel => ({
    title,
    series: servers.map((s) => ({
      label: s.label,
      color: s.color,
      dashed: s.dashed,
      points: sizes.map((size) => {
        const r = find(s, size);
        return r ? pick(r) : undefined;
      }),
    })),
  });
  return [
    panel('edit → diagnostics', (r) => r.editToDiagnosticsMs),
    panel('completion (key)', (r) => r.completionKeyMs),
    panel('hover', (r) => r.hoverMs),
  ];
}
