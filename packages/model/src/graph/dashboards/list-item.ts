import { z } from "zod";
import { LIST_DOCUMENTATION_CAP } from "../../list-shape.ts";
import { DashboardParameter, Panel } from "./definition.ts";
import type { DashboardListRow } from "./store.ts";

/**
 * A dashboard as a list shows it: what tells dashboards apart, without the panels' queries (a dashboard can hold a
 * megabyte of Cypher) unless they are asked for. The whole dashboard is one get away.
 */
export const DashboardListItem = z.object({
  dashboardId: z.string(),
  title: z.string(),
  description: z
    .string()
    .optional()
    .describe(`Cut at ${LIST_DOCUMENTATION_CAP} characters (description_truncated says so)`),
  description_truncated: z
    .boolean()
    .optional()
    .describe(`true when the description was cut at ${LIST_DOCUMENTATION_CAP} characters`),
  isProvisioned: z.boolean().describe("Provisioned from a file: cannot be changed through the API"),
  panelCount: z.number().int(),
  revision: z.number().int().describe("The latest revision"),
  updated_at: z.string(),
  parameters: z.array(DashboardParameter).optional().describe("Only when asked for"),
  panels: z.array(Panel).optional().describe("Only when asked for: each panel with its Cypher query"),
});
export type DashboardListItem = z.infer<typeof DashboardListItem>;

export function toDashboardListItem(row: DashboardListRow): DashboardListItem {
  return {
    dashboardId: row.id,
    title: row.title,
    ...(row.description === null
      ? {}
      : row.description_cut
        ? { description: `${row.description}…`, description_truncated: true }
        : { description: row.description }),
    isProvisioned: row.is_provisioned,
    panelCount: row.panel_count,
    revision: row.revision,
    updated_at: new Date(row.updated_at).toISOString(),
    ...(row.parameters ? { parameters: row.parameters } : {}),
    ...(row.panels ? { panels: row.panels } : {}),
  };
}
