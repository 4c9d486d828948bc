import { randomUUID } from "node:crypto";
import { type Database, sql } from "@ams/db";
import { type ModelDocument, parseExchange, type RequestContext, replaceModel } from "@ams/model";
import type { OrgRole } from "@ams/shared";

/** An organization with one workspace holding `model` (a parsed document or Open Exchange XML). */
export async function seedWorkspace(database: Database, model: ModelDocument | string, orgId: string = randomUUID()) {
  const workspaceId = randomUUID();
  await database.rows(
    sql`insert into organizations (id, slug, name) values (${orgId}, ${`org-${orgId}`}, 'Graph test') on conflict do nothing`,
  );
  await database.rows(
    sql`insert into workspaces (id, organization_id, name) values (${workspaceId}, ${orgId}, 'Graph test')`,
  );
  const doc = typeof model === "string" ? parseExchange(model).document : model;
  await database.db.transaction((tx) => replaceModel(database, tx, workspaceId, doc));
  return { orgId, workspaceId, doc };
}

export function contextFor(
  database: Database,
  orgId: string,
  workspaceId: string,
  role: OrgRole = "owner",
): RequestContext {
  return {
    database,
    userId: `${role}-${orgId}`,
    username: role,
    organizationId: orgId,
    workspaceId,
    role,
    platformAdmin: false,
  };
}
