import { type DbOrTx, userSelections, workspaces } from "@ams/db";
import { asc, eq } from "drizzle-orm";

/** Makes `organizationId` the user's active organization, with its first workspace (or none) active. */
export async function activateOrganization(
  db: DbOrTx,
  userId: string,
  organizationId: string,
  now: Date,
): Promise<{ organization_id: string; workspace_id: string | null }> {
  const [first] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.organizationId, organizationId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id))
    .limit(1);
  const workspaceId = first?.id ?? null;
  await db
    .insert(userSelections)
    .values({ userId, organizationId, workspaceId, updatedAt: now })
    .onConflictDoUpdate({ target: userSelections.userId, set: { organizationId, workspaceId, updatedAt: now } });
  return { organization_id: organizationId, workspace_id: workspaceId };
}
