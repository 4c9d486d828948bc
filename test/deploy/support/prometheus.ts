export type Sample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the Prometheus text exposition format strictly: every line is a # HELP / # TYPE comment or a sample;
 * anything else throws, naming the line. Values may be numbers, NaN or ±Inf.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const [i, line] of text.split("\n").entries()) {
    if (line === "") continue;
    if (line.startsWith("# HELP ")) continue;
    if (line.startsWith("# TYPE ")) {
      const [, , name, type] = line.split(" ");
      if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(type))
        throw new Error(`line ${i + 1}: type ${type}`);
      types.set(name, type);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`line ${i + 1} is not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(LABEL)) labels[l[1]] = l[2].replace(/\\(.)/g, "$1");
    const value =
      m[3] === "+Inf" ? Number.POSITIVE_INFINITY : m[3] === "-Inf" ? Number.NEGATIVE_INFINITY : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== "NaN") throw new Error(`line ${i + 1}: value ${m[3]}`);
    const family = m[1].replace(/_(bucket|sum|count|total)$/, "");
    if (!types.has(m[1]) && !types.has(family)) throw new Error(`line ${i + 1}: ${m[1]} has no # TYPE`);
    samples.push({ name: m[1], labels, value });
  }
  return samples;
}
