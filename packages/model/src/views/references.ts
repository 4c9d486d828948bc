import type { Database } from "@ams/db";
import { type SQL, sql } from "drizzle-orm";
import { type ListPage, type ListWindow, readWindow } from "../list-shape.ts";
import type { ViewReference } from "./schemas.ts";

/**
 * The views of a workspace that match `where` (a condition on `v`, the workspace included), as references in view
 * order: every "views that show this element / draw this relationship" answer, whole or one window at a time.
 */
export function viewReferences(database: Database, where: SQL): Promise<ViewReference[]> {
  return database.rows<ViewReference>(sql`${SELECT} where ${where} order by v.ord`);
}

export function viewReferencesWindow(
  database: Database,
  where: SQL,
  window: ListWindow,
): Promise<ListPage<ViewReference>> {
  return readWindow<ViewReference>(
    database,
    sql`${SELECT} where ${where} order by v.ord`,
    sql`select count(*)::int as n from views v where ${where}`,
    window,
  );
}

const SELECT = sql`select v.id, v.name, v.viewpoint, v.documentation from views v`;
