/**
 * The colours of a heatmap, shared by the server's drawing (GET /api/views/:id/image?color_by=) and the browser's
 * "Colour by" menu, so both paint the same value the same colour. Pure: no database, no DOM.
 */
export const PALETTES = ["rag", "heat", "blues", "categories"] as const;
export type Palette = (typeof PALETTES)[number];

const NO_VALUE = "#e0e0e0";
const SEQUENTIAL: Record<Exclude<Palette, "categories">, string[]> = {
  rag: ["#2e9e4f", "#9ccc3d", "#f5c218", "#f08a24", "#d9352b"],
  heat: ["#fff3b0", "#fdd36b", "#f9a03f", "#e8613a", "#c2253a"],
  blues: ["#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c"],
};
const CATEGORIES = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"];
/** Words a RAG palette knows: red for high risk or criticality, amber between, green for low. */
const RAG_WORDS: Record<string, string> = {
  red: "#d9352b",
  high: "#d9352b",
  critical: "#d9352b",
  amber: "#f5c218",
  medium: "#f5c218",
  yellow: "#f5c218",
  green: "#2e9e4f",
  low: "#2e9e4f",
};

export type Scale = { color: (v: string | number | undefined) => string; entries: { label: string; color: string }[] };

/** Numbers get five equal bands of a sequential palette; texts a colour each (RAG words their traffic-light colour). */
export function heatScale(values: (string | number)[], palette: Palette | undefined): Scale {
  const present = values.filter((v) => v !== "");
  const numeric = present.length > 0 && present.every((v) => typeof v === "number" || /^-?\d+(\.\d+)?$/.test(v));
  const noValue = { label: "no value", color: NO_VALUE };
  if (numeric && palette !== "categories") {
    const nums = present.map(Number);
    const min = Math.min(...nums);
    const max = Math.max(...nums);
    const colors = SEQUENTIAL[palette ?? "heat"];
    const band = (n: number) =>
      max === min
        ? colors.length - 1
        : Math.min(colors.length - 1, Math.floor(((n - min) / (max - min)) * colors.length));
    const bands = max === min ? [max] : colors.map((_, i) => min + ((max - min) * i) / colors.length);
    const entries = bands.map((from, i) => ({
      label: max === min ? fmt(from) : `${fmt(from)} to ${fmt(i === colors.length - 1 ? max : (bands[i + 1] ?? max))}`,
      color: colors[max === min ? colors.length - 1 : i] as string,
    }));
    return {
      color: (v) => (v === undefined || v === "" ? NO_VALUE : (colors[band(Number(v))] as string)),
      entries: [...entries, noValue],
    };
  }
  const distinct = [...new Set(present.map(String))].sort((a, b) => a.localeCompare(b));
  const colorOf = new Map<string, string>();
  distinct.forEach((v, i) => {
    const rag = palette !== "categories" ? RAG_WORDS[v.toLowerCase()] : undefined;
    const sequential = palette && palette !== "categories" && palette !== "rag" ? SEQUENTIAL[palette] : null;
    colorOf.set(
      v,
      rag ?? (sequential ? sequential[i % sequential.length] : CATEGORIES[i % CATEGORIES.length]) ?? NO_VALUE,
    );
  });
  return {
    color: (v) => (v === undefined || v === "" ? NO_VALUE : (colorOf.get(String(v)) ?? NO_VALUE)),
    entries: [...distinct.map((label) => ({ label, color: colorOf.get(label) ?? NO_VALUE })), noValue],
  };
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
