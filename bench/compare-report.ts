import { median, type Row } from "./compare-stats.ts";

/** How `pnpm bench:compare` prints its rows: on the console, and as markdown for a closing note. */

const num = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** "1.23 ms (1.20–1.31)": the median of the rounds and their range. */
export function cell(values: number[], unit: string): string {
  if (!values.length) return "—";
  const range = values.length > 1 ? ` (${num(Math.min(...values))}–${num(Math.max(...values))})` : "";
  return `${num(median(values))} ${unit}${range}`;
}

const ratioText = (r: Row) => (Number.isNaN(r.ratio) ? "" : `${r.ratio.toFixed(2)}x`);
const bandText = (r: Row) => (Number.isNaN(r.band) ? "" : `±${(100 * r.band).toFixed(1)}%`);

/** The verdict as printed: a flagged row says so loudly, the others quietly. */
export function verdictText(r: Row, labels: { base: string; head: string }): string {
  switch (r.verdict) {
    case "slower":
      return "SLOWER (outside the band)";
    case "faster":
      return "FASTER (outside the band)";
    case "only in base":
      return `only in ${labels.base}`;
    case "only in head":
      return `only in ${labels.head}`;
    default:
      return r.verdict;
  }
}

export function consoleTable(rows: Row[], labels: { base: string; head: string }): string {
  const head = ["figure", labels.base, labels.head, "ratio", "noise band", ""];
  const lines = rows.map((r) => [
    r.name,
    cell(r.base, r.unit),
    cell(r.head, r.unit),
    ratioText(r),
    bandText(r),
    verdictText(r, labels),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (l: string[]) =>
    l
      .map((c, i) => (i === 0 || i === l.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(head), ...lines.map(fmt)].join("\n");
}

export function markdownTable(rows: Row[], labels: { base: string; head: string }): string {
  const out = [
    `| Suite | Figure | ${labels.base} | ${labels.head} | Ratio | Noise band | Verdict |`,
    "| --- | --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const r of rows) {
    const verdict = verdictText(r, labels);
    out.push(
      `| ${r.suite} | ${r.name} | ${cell(r.base, r.unit)} | ${cell(r.head, r.unit)} | ${ratioText(r)} | ${bandText(r)} | ${r.verdict === "slower" || r.verdict === "faster" ? `**${verdict}**` : verdict} |`,
    );
  }
  return out.join("\n");
}
