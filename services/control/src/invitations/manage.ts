import { type Database, invitations, users } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, isNull } from "drizzle-orm";
import { isUuid } from "../gateway/resolve.ts";
import { type InvitationRow, type InvitationView, toInvitation } from "./schemas.ts";

const notFound = () => new AppError("NOT_FOUND", "Invitation not found");

/** The organization's invitations, newest first; pending ones by default (expired included: they can be resent). */
export async function listInvitations(
  database: Database,
  organizationId: string,
  status: "pending" | "all",
  now: Date,
): Promise<InvitationView[]> {
  const where =
    status === "all"
      ? eq(invitations.organizationId, organizationId)
      : and(
          eq(invitations.organizationId, organizationId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        );
  const rows = await database.db
    .select({ invitation: invitations, invitedBy: users.username })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(where)
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map((r) => toInvitation(r.invitation, r.invitedBy ?? null, now));
}

/** One invitation of the organization (filtered by organization in the query, never compared afterwards). */
export async function getInvitationInOrganization(
  database: Database,
  organizationId: string,
  invitationId: string,
): Promise<InvitationRow> {
  if (!isUuid(invitationId)) throw notFound();
  const [row] = await database.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, invitationId)));
  if (!row) throw notFound();
  return row;
}

/** Revokes an active invitation; revoking a revoked one again is a no-op, an accepted one is a conflict. */
export async function revokeInvitation(
  database: Database,
  organizationId: string,
  invitationId: string,
  now: Date,
): Promise<void> {
  if (!isUuid(invitationId)) throw notFound();
  const [revoked] = await database.db
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.id, invitationId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .returning({ id: invitations.id });
  if (revoked) return;
  const row = await getInvitationInOrganization(database, organizationId, invitationId);
  if (row.acceptedAt) {
    throw new AppError("CONFLICT", "This invitation has been accepted; remove the member instead");
  }
}
