/**
 * A small SVG line chart for the scaling figures: log-scaled on both axes, so a flat line is a cost that does not
 * grow, a line rising one decade per decade is a linear cost, and the gap between an operation and its floor reads
 * the same at every size. Written by hand (no chart library) so the picture is a plain, reviewable text file.
 */

export type Point = { x: number; y: number };
export type Series = { name: string; points: Point[]; dashed?: boolean };
export type Panel = { title: string; xLabel: string; yLabel: string; series: Series[] };

const PANEL_W = 420;
const PANEL_H = 300;
const MARGIN = { left: 62, right: 16, top: 34, bottom: 44 };
const LEGEND_ROW = 16;
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"];

/** Text for an SVG text node or attribute: the five XML specials escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Powers of ten covering [min, max] on a log axis. */
function decades(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

function tickLabel(v: number): string {
  if (v >= 1000) return `${v / 1000}k`;
  return v >= 1 ? String(v) : String(Number(v.toPrecision(1)));
}

function panelSvg(panel: Panel, offsetX: number): string {
  const points = panel.series.flatMap((s) => s.points).filter((p) => p.x > 0 && p.y > 0);
  if (points.length === 0) throw new Error(`chart panel '${panel.title}' has no positive points`);
  const xTicks = decades(Math.min(...points.map((p) => p.x)), Math.max(...points.map((p) => p.x)));
  const yTicks = decades(Math.min(...points.map((p) => p.y)), Math.max(...points.map((p) => p.y)));
  const [x0, x1] = [Math.log10(xTicks[0]!), Math.log10(xTicks.at(-1)!)];
  const [y0, y1] = [Math.log10(yTicks[0]!), Math.log10(yTicks.at(-1)!)];
  const plotW = PANEL_W - MARGIN.left - MARGIN.right;
  const plotH = PANEL_H - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => offsetX + MARGIN.left + ((Math.log10(x) - x0) / (x1 - x0 || 1)) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - ((Math.log10(y) - y0) / (y1 - y0 || 1)) * plotH;
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [
    `<text x="${f(offsetX + PANEL_W / 2)}" y="20" text-anchor="middle" font-weight="bold">${escapeXml(panel.title)}</text>`,
    `<rect x="${f(offsetX + MARGIN.left)}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
  ];
  for (const t of xTicks) {
    parts.push(
      `<line x1="${f(sx(t))}" y1="${MARGIN.top}" x2="${f(sx(t))}" y2="${MARGIN.top + plotH}" stroke="#e4e4e4"/>`,
      `<text x="${f(sx(t))}" y="${MARGIN.top + plotH + 16}" text-anchor="middle">${escapeXml(tickLabel(t))}</text>`,
    );
  }
  for (const t of yTicks) {
    parts.push(
      `<line x1="${f(offsetX + MARGIN.left)}" y1="${f(sy(t))}" x2="${f(offsetX + MARGIN.left + plotW)}" y2="${f(sy(t))}" stroke="#e4e4e4"/>`,
      `<text x="${f(offsetX + MARGIN.left - 6)}" y="${f(sy(t) + 4)}" text-anchor="end">${escapeXml(tickLabel(t))}</text>`,
    );
  }
  parts.push(
    `<text x="${f(offsetX + MARGIN.left + plotW / 2)}" y="${PANEL_H - 8}" text-anchor="middle">${escapeXml(panel.xLabel)}</text>`,
    `<text transform="translate(${f(offsetX + 16)} ${f(MARGIN.top + plotH / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(panel.yLabel)}</text>`,
  );
  panel.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const dash = s.dashed ? ` stroke-dasharray="5 4"` : "";
    const path = s.points.map((p) => `${f(sx(p.x))},${f(sy(p.y))}`).join(" ");
    parts.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    for (const p of s.points) parts.push(`<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="3" fill="${colour}"/>`);
    const ly = PANEL_H + 10 + i * LEGEND_ROW;
    const lx = offsetX + MARGIN.left;
    parts.push(
      `<line x1="${f(lx)}" y1="${ly}" x2="${f(lx + 22)}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`,
      `<text x="${f(lx + 28)}" y="${ly + 4}">${escapeXml(s.name)}</text>`,
    );
  });
  return parts.join("\n");
}

/**
 * Panels side by side, each with its legend underneath; `title` is the picture's text alternative, `note` a line of
 * small print at the bottom.
 */
export function scalingChart(title: string, panels: Panel[], note: string): string {
  const legendRows = Math.max(...panels.map((p) => p.series.length));
  const width = panels.length * PANEL_W;
  const height = PANEL_H + 16 + legendRows * LEGEND_ROW + 22;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...panels.map((p, i) => panelSvg(p, i * PANEL_W)),
    `<text x="8" y="${height - 8}" fill="#555">${escapeXml(note)}</text>`,
    "</svg>",
    "",
  ].join("\n");
}
