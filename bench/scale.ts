import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { load } from "./exchange/timing.ts";
import { report, section, verdict } from "./lib.ts";
import { type Panel, type Series, scalingChart } from "./scale-chart.ts";
import { type Figure, type ModelScaling, measureModelScaling } from "./scale-model.ts";
import { measureOrgScaling, type OrgScaling } from "./scale-orgs.ts";

const MODEL_SIZES = [1_000, 10_000, 100_000];
const ORG_COUNTS = [10, 1_000, 10_000];
/** How much a per-request cost may grow from the smallest to the largest size (issue 18: 1.5x for a list page). */
const FLAT = 1.5;
/** How much the time per element of whole-model work may grow from 10k to 100k elements and still be linear. */
const LINEAR = 1.5;
const RESULTS = new URL("./results/scale.json", import.meta.url);
const CHART = new URL("../docs/performance/scaling.svg", import.meta.url);

/**
 * Issue 18, part 3: how the cost of each operation grows with the model (1k, 10k, 100k elements) and with the number
 * of organizations (10, 1,000, 10,000) on real PostgreSQL and Neo4j. Per-request costs must stay flat, whole-model
 * work (export, graph rebuild) linear. Writes the figures to bench/results/scale.json and the chart to
 * docs/performance/scaling.svg.
 */
export async function benchScale() {
  section(`Scaling with the model: ${MODEL_SIZES.join(", ")} elements (seeding; ${load()})`);
  const model = await measureModelScaling(MODEL_SIZES);
  reportModel(model);
  section(`Scaling with organizations: ${ORG_COUNTS.join(", ")} present (${load()})`);
  const orgs = await measureOrgScaling(ORG_COUNTS);
  reportOrgs(orgs);
  mkdirSync(new URL(".", RESULTS), { recursive: true });
  mkdirSync(new URL(".", CHART), { recursive: true });
  const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}`;
  writeFileSync(RESULTS, `${JSON.stringify({ at: new Date().toISOString(), machine, model, orgs }, null, 2)}\n`);
  writeFileSync(CHART, chart(model, orgs, machine));
  console.log(`      wrote ${RESULTS.pathname} and ${CHART.pathname}`);
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

function byOp<T extends { op: string }>(figures: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const f of figures) out.set(f.op, [...(out.get(f.op) ?? []), f]);
  return out;
}

function reportModel(m: ModelScaling) {
  const [small, , large] = m.sizes as [number, number, number];
  console.log(
    `      ${"operation (median ms, floor in brackets)".padEnd(40)}${m.sizes.map((s) => `${s}`.padStart(20)).join("")}`,
  );
  for (const [op, figures] of byOp(m.figures)) {
    const cells = figures.map((f) => `${fmt(f.value.median)} (${f.floor ? fmt(f.floor.median) : "-"})`.padStart(20));
    console.log(`      ${op.padEnd(40)}${cells.join("")}`);
  }
  for (const [op, figures] of byOp(m.figures)) {
    const first = figures.find((f) => f.size === small)!;
    const last = figures.find((f) => f.size === large)!;
    report(
      `${op} at ${large / 1000}k vs at ${small / 1000}k elements, median`,
      last.value.median,
      first.value.median,
      `<= ${FLAT}x the cost at ${small / 1000}k`,
      last.value.median <= FLAT * first.value.median,
    );
    if (last.floor) report(`  its floor at ${large / 1000}k`, last.floor.median, null, "", true);
  }
  const [, mid] = m.sizes as [number, number, number];
  const perItem = (ms: Record<number, number>, size: number) => (ms[size]! / m.items[size]!) * 1000;
  for (const [name, ms] of [
    ["export (XML)", m.exportMs],
    ["graph rebuild", m.rebuildMs],
  ] as const) {
    const line = m.sizes.map((s) => `${s}: ${fmt(ms[s]!)} ms, ${perItem(ms, s).toFixed(1)} us/item`).join("; ");
    const growth = perItem(ms, large) / perItem(ms, mid);
    verdict(
      `${name} linear`,
      `${name}: ${line}; per item at ${large / 1000}k = ${growth.toFixed(2)}x at ${mid / 1000}k (target <= ${LINEAR}x)`,
      growth <= LINEAR,
    );
  }
  for (const s of m.sizes) {
    report(
      `export at ${s / 1000}k elements vs serializing the same model`,
      m.exportMs[s]!,
      m.serializeMs[s]!,
      "(informational)",
      true,
    );
  }
}

function reportOrgs(o: OrgScaling) {
  for (const [op, figures] of byOp(o.figures)) {
    for (const f of figures) report(`${op}, ${f.orgs} organizations, median`, f.value.median, f.floor.median, "", true);
    const first = figures[0]!;
    const last = figures.at(-1)!;
    report(
      `${op} with ${last.orgs} vs ${first.orgs} organizations, median`,
      last.value.median,
      first.value.median,
      `<= ${FLAT}x the cost at ${first.orgs}`,
      last.value.median <= FLAT * first.value.median,
    );
  }
}

function series(figures: Figure[], op: string, pick: "value" | "floor"): Series {
  return {
    name: pick === "value" ? op : `${op}: floor`,
    dashed: pick === "floor",
    points: figures
      .filter((f) => f.op === op)
      .map((f) => ({ x: f.size, y: (pick === "value" ? f.value : f.floor!).median })),
  };
}

function chart(m: ModelScaling, o: OrgScaling, machine: string): string {
  const ops = [...byOp(m.figures).keys()];
  const perRequest: Panel = {
    title: "Per request, by model size",
    xLabel: "elements in the workspace",
    yLabel: "median ms per request",
    series: [...ops.map((op) => series(m.figures, op, "value")), series(m.figures, "list page", "floor")],
  };
  const perItem = (name: string, ms: Record<number, number>): Series => ({
    name,
    points: m.sizes.map((s) => ({ x: s, y: (ms[s]! / m.items[s]!) * 1000 })),
  });
  const whole: Panel = {
    title: "Whole model, per element + relationship",
    xLabel: "elements in the workspace",
    yLabel: "µs per item (flat = linear)",
    series: [
      perItem("export (XML)", m.exportMs),
      { ...perItem("export: serialization floor", m.serializeMs), dashed: true },
      perItem("graph rebuild", m.rebuildMs),
    ],
  };
  const orgOps = [...byOp(o.figures).keys()];
  const orgs: Panel = {
    title: "Per request, by organizations present",
    xLabel: "organizations in the database",
    yLabel: "median ms per request",
    series: orgOps.map((op) => ({
      name: op,
      points: o.figures.filter((f) => f.op === op).map((f) => ({ x: f.orgs, y: f.value.median })),
    })),
  };
  const note = `pnpm bench scale, ${new Date().toISOString().slice(0, 16)}Z, ${machine}; ${m.loadAverage}. Dashed: floors.`;
  return scalingChart(
    "Scaling: per-request cost by model size and by organizations present, whole-model cost per element",
    [perRequest, whole, orgs],
    note,
  );
}
