import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";

export type DefinitionInfo = {
  id: string;
  name: string;
  type: string;
  isSystem: boolean;
  /** The values an enumeration allows; null for other types (and for an enumeration defined without a list). */
  allowedValues: string[] | null;
};

export const SYSTEM_ICON_PACK = "Service Plugin IconPack";
export const SYSTEM_ICON_PACK_ID = "propdef-service-plugin-iconpack";

export async function loadDefinitions(database: Database, workspaceId: string, on?: DbOrTx) {
  return database.rows<DefinitionInfo>(
    sql`select id, name, type, is_system as "isSystem", allowed_values as "allowedValues" from property_definitions
        where workspace_id = ${workspaceId} order by ord`,
    on,
  );
}

/**
 * Makes sure the workspace has the system definition; a workspace always carries it, imports included. A file that
 * brings a definition of that name (an earlier export of ours) gets it marked as the system one, not duplicated.
 */
export async function ensureSystemDefinitions(database: Database, workspaceId: string, on?: DbOrTx) {
  await database.rows(
    sql`update property_definitions set is_system = true
        where workspace_id = ${workspaceId} and name = ${SYSTEM_ICON_PACK} and not is_system
          and id = (select id from property_definitions where workspace_id = ${workspaceId} and name = ${SYSTEM_ICON_PACK}
                    order by ord limit 1)`,
    on,
  );
  await database.rows(
    sql`insert into property_definitions (workspace_id, id, ord, name, type, is_system)
        select ${workspaceId}, ${SYSTEM_ICON_PACK_ID},
          coalesce((select max(ord) + 1 from property_definitions where workspace_id = ${workspaceId}), 0),
          ${SYSTEM_ICON_PACK}, 'string', true
        where not exists (select 1 from property_definitions
          where workspace_id = ${workspaceId} and (is_system or name = ${SYSTEM_ICON_PACK}))`,
    on,
  );
}
