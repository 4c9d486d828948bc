import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Database, sql } from "@ams/db";
import { validateDefinition } from "./definition.ts";
import { appendRevision, insertDashboard } from "./store.ts";

/**
 * Loads the provisioned dashboards (one JSON file each: {dashboardId, ...DashboardDefinition}) into the database:
 * a new file becomes revision 1, a changed one a new revision, an unchanged one nothing. A file that does not
 * validate stops the start-up with its name in the message.
 */
export async function provisionDashboards(database: Database, dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const { dashboardId, ...rest } = JSON.parse(readFileSync(join(dir, file), "utf8")) as { dashboardId?: string };
    if (!dashboardId || !/^[a-z0-9-]{1,64}$/.test(dashboardId))
      throw new Error(`dashboards/${file}: dashboardId must be a lower-case slug`);
    let def: ReturnType<typeof validateDefinition>;
    try {
      def = validateDefinition(rest);
    } catch (err) {
      throw new Error(`dashboards/${file}: ${(err as Error).message}`);
    }
    const [current] = await database.rows<{ definition: unknown }>(
      sql`select r.definition from dashboards d join dashboard_revisions r on r.dashboard_id = d.id and r.revision = d.latest_revision
          where d.id = ${dashboardId} and d.organization_id is null`,
    );
    if (!current) {
      await insertDashboard(database, null, def, null, dashboardId).catch(async (err) => {
        // Another process provisioned it at the same moment.
        const [again] = await database.rows(sql`select 1 from dashboards where id = ${dashboardId}`);
        if (!again) throw err;
      });
    } else if (canonical(current.definition) !== canonical(def)) {
      await appendRevision(database, null, dashboardId, def, null);
    }
    ids.push(dashboardId);
  }
  return ids;
}

/** JSON with keys sorted at every level (jsonb does not keep key order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
