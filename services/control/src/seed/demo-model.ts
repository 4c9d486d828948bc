import { type Database, organizations, workspaces } from "@ams/db";
import { createWorkspace, DEMO_MODEL_NAME, demoModelXml, importModel, type RequestContext } from "@ams/model";
import { eq } from "drizzle-orm";
import { findUserByUsername } from "../auth/users.ts";

/**
 * The demo organization's first workspace holds the sample model, so that archi (its owner) signs in to a model
 * with views at once. Only when the organization has no workspace yet: a user's own work is never touched.
 * Returns the import's warnings (none expected: the sample is valid ArchiMate 3.1).
 */
export async function seedDemoModel(database: Database): Promise<string[] | null> {
  const [org] = await database.db.select().from(organizations).where(eq(organizations.slug, "archisurance"));
  const owner = await findUserByUsername(database.db, "archi");
  if (!org || !owner) return null;
  const existing = await database.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.organizationId, org.id))
    .limit(1);
  if (existing.length > 0) return null;
  const ctx: RequestContext = {
    database,
    userId: owner.id,
    username: owner.username,
    organizationId: org.id,
    workspaceId: null,
    role: "owner",
    platformAdmin: false,
  };
  const ws = await createWorkspace({
    ctx,
    input: { name: DEMO_MODEL_NAME, description: "Sample model: a fictional insurer handling car damage claims." },
  });
  const result = await importModel({ ctx: { ...ctx, workspaceId: ws.id }, input: { xml: demoModelXml() } });
  return result.warnings.map((w) => (typeof w === "string" ? w : JSON.stringify(w)));
}
