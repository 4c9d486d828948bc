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
      if (
        name === undefined ||
        type === undefined ||
        !["counter", "gauge", "histogram", "summary", "untyped"].includes(type)
      )
        throw new Error(`line ${i + 1}: type ${type}`);
      types.set(name, type);
      continue;
    }
    const [, name, labelText, raw] = SAMPLE.exec(line) ?? [];
    if (name === undefined || raw === undefined) throw new Error(`line ${i + 1} is not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, escaped] of (labelText ?? "").matchAll(LABEL)) {
      if (key === undefined || escaped === undefined) throw new Error(`line ${i + 1}: a label without name or value`);
      labels[key] = escaped.replace(/\\(.)/g, "$1");
    }
    const value = raw === "+Inf" ? Number.POSITIVE_INFINITY : raw === "-Inf" ? Number.NEGATIVE_INFINITY : Number(raw);
    if (Number.isNaN(value) && raw !== "NaN") throw new Error(`line ${i + 1}: value ${raw}`);
    const family = name.replace(/_(bucket|sum|count|total)$/, "");
    if (!types.has(name) && !types.has(family)) throw new Error(`line ${i + 1}: ${name} has no # TYPE`);
    samples.push({ name, labels, value });
  }
  return samples;
}
