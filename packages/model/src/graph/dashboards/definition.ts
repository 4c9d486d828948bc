import { AppError, type FieldError, LAYERS, zodFieldErrors } from "@ams/shared";
import { z } from "zod";
import { parseReadQuery } from "../cypher/parse.ts";

const Name = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "letters, digits and _; not starting with a digit");

export const PanelVisualization = z.enum(["core/graph", "core/table", "core/metric"]);

export const DashboardParameter = z
  .object({
    name: Name.describe("Query-string key and, unless a panel binds it otherwise, the Cypher parameter name"),
    label: z.string().min(1).max(200),
    type: z
      .enum(["string", "number", "boolean", "enum", "element"])
      .describe("element: the id of an element of the workspace"),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    required: z.boolean().default(false),
    options: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(200)
      .optional()
      .describe("Allowed values of an enum parameter"),
    elementType: z.string().max(100).optional().describe("For type element: restricts the picker to one element type"),
  })
  .strict();

export const PanelLayout = z
  .object({
    x: z.number().int().min(0).max(11),
    y: z.number().int().min(0).max(1000),
    w: z.number().int().min(1).max(12),
    h: z.number().int().min(1).max(50),
  })
  .strict()
  .describe("Position on a 12-column grid");

export const Panel = z
  .object({
    panelInstanceId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    title: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    visualization: PanelVisualization,
    query: z.string().min(1).max(20_000).describe("Read-only Cypher over the active workspace's graph"),
    bindings: z
      .record(Name, Name)
      .optional()
      .describe(
        "Cypher parameter -> dashboard parameter; without it every dashboard parameter is passed under its own name",
      ),
    layout: PanelLayout,
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Visualization options, passed to the client as they are"),
  })
  .strict();

export const DashboardDefinition = z
  .object({
    title: z.string().min(1).max(200),
    description: z.string().max(5000).optional(),
    parameters: z.array(DashboardParameter).max(30).default([]),
    panels: z.array(Panel).max(50).default([]),
  })
  .strict();
export type DashboardDefinition = z.infer<typeof DashboardDefinition>;
export type DashboardParameter = z.infer<typeof DashboardParameter>;
export type Panel = z.infer<typeof Panel>;

/** The published JSON Schema of a dashboard definition (GET /api/dashboards/schema). */
export function dashboardJsonSchema() {
  return {
    $id: "https://archimate.example/schemas/dashboard-definition.json",
    ...z.toJSONSchema(DashboardDefinition, { io: "input" }),
  };
}

/** Shape plus the rules a schema cannot say: unique ids, known bindings, typed defaults, parsable queries, grid fit. */
export function validateDefinition(input: unknown): DashboardDefinition {
  const parsed = DashboardDefinition.safeParse(input);
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    throw new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  const def = parsed.data;
  const errors: FieldError[] = [];
  const names = new Set<string>();
  def.parameters.forEach((p, i) => {
    if (names.has(p.name)) errors.push({ path: `parameters.${i}.name`, message: `duplicate parameter '${p.name}'` });
    names.add(p.name);
    if (p.type === "enum" && !p.options)
      errors.push({ path: `parameters.${i}.options`, message: "an enum parameter needs options" });
    if (p.type !== "enum" && p.options)
      errors.push({ path: `parameters.${i}.options`, message: "only enum parameters have options" });
    if (p.default !== undefined) {
      try {
        coerceParameter(p, String(p.default));
      } catch (err) {
        errors.push({
          path: `parameters.${i}.default`,
          message: (err as AppError).errors?.[0]?.message ?? "invalid default",
        });
      }
    }
  });
  const panelIds = new Set<string>();
  def.panels.forEach((panel, i) => {
    if (panelIds.has(panel.panelInstanceId))
      errors.push({ path: `panels.${i}.panelInstanceId`, message: `duplicate panel '${panel.panelInstanceId}'` });
    panelIds.add(panel.panelInstanceId);
    if (panel.layout.x + panel.layout.w > 12)
      errors.push({ path: `panels.${i}.layout`, message: "x + w must be at most 12 columns" });
    for (const [param, source] of Object.entries(panel.bindings ?? {})) {
      if (!names.has(source))
        errors.push({ path: `panels.${i}.bindings.${param}`, message: `no dashboard parameter '${source}'` });
    }
    try {
      parseReadQuery(panel.query);
    } catch (err) {
      errors.push({
        path: `panels.${i}.query`,
        message: (err as AppError).errors?.[0]?.message ?? (err as Error).message,
      });
    }
  });
  if (errors.length)
    throw new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  return def;
}

/** A query-string value as the parameter's type, or a 422 naming the parameter. */
export function coerceParameter(p: DashboardParameter, raw: string): string | number | boolean {
  const bad = (message: string): never => {
    throw new AppError("VALIDATION", `${p.name}: ${message}`, { errors: [{ path: p.name, message }] });
  };
  switch (p.type) {
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) bad(`'${raw}' is not a number`);
      return n;
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") bad("must be true or false");
      return raw === "true";
    case "enum":
      if (!p.options?.includes(raw)) bad(`must be one of ${p.options?.join(", ")}`);
      return raw;
    case "element":
      if (!raw || raw.length > 200) bad("must be an element id");
      return raw;
    default:
      if (raw.length > 1000) bad("is longer than 1000 characters");
      return raw;
  }
}

export const LAYER_OPTIONS = [...LAYERS];
