import { type Database, invitations, memberships, organizations, type Tx, users } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Principal } from "../auth/principal.ts";
import { type InvitationRow, invitationStatus } from "./schemas.ts";
import { invitationTokenHash, looksLikeInvitationToken } from "./tokens.ts";

type Found = {
  invitation: InvitationRow;
  organizationName: string;
  organizationEnabled: boolean;
  invitedBy: string | null;
};

/**
 * The guard of preview and accept (both bypass the membership gateway; the gateway has already answered 401 for a
 * request without credentials): the token must name an invitation (404), the caller's e-mail must be the invited
 * one and verified (403), and the invitation must be usable: not revoked, accepted or expired (410). The identity
 * is checked before the state, so only the invitee learns what became of an invitation.
 */
async function findForCaller(database: Database, token: string, principal: Principal, now: Date): Promise<Found> {
  if (!looksLikeInvitationToken(token)) throw notFound();
  const [found] = await database.db
    .select({
      invitation: invitations,
      organizationName: organizations.name,
      organizationEnabled: organizations.enabled,
      invitedBy: users.name,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, invitationTokenHash(token)));
  if (!found) throw notFound();
  const callerEmail = principal.email?.trim().toLowerCase();
  if (!callerEmail || callerEmail !== found.invitation.email.toLowerCase()) {
    throw new AppError(
      "FORBIDDEN",
      "This invitation was sent to another e-mail address; sign in with the account of the invited address",
    );
  }
  if (!principal.emailVerified) {
    throw new AppError("FORBIDDEN", "Verify your e-mail address first, then open the invitation again");
  }
  const gone = goneReason(found.invitation, now);
  if (gone) throw gone;
  return { ...found, invitedBy: found.invitedBy ?? null };
}

export function goneReason(row: InvitationRow, now: Date): AppError | null {
  switch (invitationStatus(row, now)) {
    case "accepted":
      return new AppError("GONE", "This invitation has already been accepted");
    case "revoked":
      return new AppError("GONE", "This invitation has been withdrawn; ask the organization's owner for a new one");
    case "expired":
      return new AppError("GONE", "This invitation has expired; ask the organization's owner for a new one");
    default:
      return null;
  }
}

export const notFound = () => new AppError("NOT_FOUND", "This invitation link is not valid");

export async function previewInvitation(database: Database, token: string, principal: Principal, now: Date) {
  const { invitation, organizationName, invitedBy } = await findForCaller(database, token, principal, now);
  return {
    organization: { id: invitation.organizationId, name: organizationName },
    email: invitation.email,
    role: invitation.role,
    invited_by: invitedBy,
    expires_at: new Date(invitation.expiresAt).toISOString(),
  };
}

/**
 * Redeems the invitation as a compare-and-swap in one transaction: the UPDATE claims it only while it is still
 * unaccepted, unrevoked, unexpired and addressed to the caller, so of any number of concurrent accepts exactly one
 * gets the row back. The membership insert ignores an existing membership (its role is left unchanged).
 */
export async function acceptInvitation(database: Database, token: string, principal: Principal, now: Date) {
  const found = await findForCaller(database, token, principal, now);
  if (!found.organizationEnabled) throw new AppError("FORBIDDEN", "This organization is suspended");
  const email = found.invitation.email.toLowerCase();
  return database.db.transaction(async (tx) => {
    const claimed = await claimInvitation(tx, found.invitation.id, email, principal.userId, now);
    const inserted = await tx
      .insert(memberships)
      .values({ organizationId: claimed.organizationId, userId: principal.userId, role: claimed.role, createdAt: now })
      .onConflictDoNothing()
      .returning({ role: memberships.role });
    if (inserted.length > 0) {
      return { organization_id: claimed.organizationId, role: claimed.role, already_member: false };
    }
    const [existing] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, claimed.organizationId), eq(memberships.userId, principal.userId)));
    return { organization_id: claimed.organizationId, role: existing?.role ?? claimed.role, already_member: true };
  });
}

/**
 * The compare-and-swap claim of an invitation for a user, inside the caller's transaction: of any number of
 * concurrent claims one wins; the others get the reason the invitation can no longer be used (410).
 */
export async function claimInvitation(tx: Tx, invitationId: string, email: string, userId: string, now: Date) {
  const [claimed] = await tx
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(
      and(
        eq(invitations.id, invitationId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
        sql`lower(${invitations.email}) = ${email}`,
      ),
    )
    .returning({ organizationId: invitations.organizationId, role: invitations.role });
  if (claimed) return claimed;
  const [current] = await tx.select().from(invitations).where(eq(invitations.id, invitationId));
  throw (current && goneReason(current, now)) ?? new AppError("GONE", "This invitation can no longer be used");
}
