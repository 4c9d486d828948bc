import { invitations, organizations } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { isUniqueViolation } from "../http/db-errors.ts";
import type { MemberRole } from "../organizations/schemas.ts";
import { deliverInvitation } from "./deliver.ts";
import { type DeliveryMode, type InvitationRow, toInvitation } from "./schemas.ts";
import type { InvitationServices } from "./services.ts";
import { acceptUrl, generateInvitationToken } from "./tokens.ts";

export type IssueRequest = {
  organizationId: string;
  email: string;
  role: MemberRole;
  deliveryMode: DeliveryMode;
  inviter: { userId: string; username: string; name: string };
  /** Resend: the invitation this one replaces, which must still be active. */
  replaces?: string;
};

/**
 * THE code path of create and resend: in one transaction the active invitation of (organization, e-mail) is
 * revoked (for resend: exactly the one named, or 409 when it is no longer active) and a new one with a fresh token
 * is inserted; then it is delivered, and sent_at is set only when the e-mail went out. Issues for one address are
 * serialized by a transaction-scoped advisory lock; the partial unique index is what guarantees one active
 * invitation per address regardless, and a violation of it (a writer that skipped the lock) is retried.
 */
export async function issueInvitation(s: InvitationServices, req: IssueRequest) {
  const email = req.email.trim().toLowerCase();
  if (req.deliveryMode !== "manual" && s.settings.ssoEnabled && !s.settings.selfRegistration) {
    throw invalid(
      "delivery_mode",
      "e-mail invitations are available only on the shared realm (IDP_SELF_REGISTRATION); use delivery_mode manual or add the member by username",
    );
  }
  const now = s.clock();
  const expiresAt = new Date(now.getTime() + s.settings.ttlHours * 3600 * 1000);
  const { token, tokenHash } = generateInvitationToken();
  const { row, organizationName } = await withRetry(() =>
    s.database.db.transaction(async (tx) => {
      // Concurrent issues for one address queue here instead of colliding on the unique index.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`invitation:${req.organizationId}:${email}`}, 0))`,
      );
      const [org] = await tx
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, req.organizationId));
      if (!org) throw new AppError("NOT_FOUND", "Organization not found");
      const active = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
      const target = req.replaces ? eq(invitations.id, req.replaces) : sql`lower(${invitations.email}) = ${email}`;
      const revoked = await tx
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(eq(invitations.organizationId, req.organizationId), target, active))
        .returning({ id: invitations.id });
      if (req.replaces && revoked.length === 0) {
        throw new AppError("CONFLICT", "This invitation is no longer active; create a new one");
      }
      const [inserted] = await tx
        .insert(invitations)
        .values({
          organizationId: req.organizationId,
          email,
          role: req.role,
          deliveryMode: req.deliveryMode,
          tokenHash,
          invitedBy: req.inviter.userId,
          createdAt: now,
          expiresAt,
        })
        .returning();
      if (!inserted) throw new AppError("INTERNAL", "The invitation was not stored");
      return { row: inserted, organizationName: org.name };
    }),
  );

  const url = acceptUrl(s.settings.publicUrl, token);
  const delivery = await deliverInvitation(s, {
    email,
    role: req.role,
    deliveryMode: req.deliveryMode,
    expiresAt,
    organizationName,
    inviterName: req.inviter.name,
    acceptUrl: url,
  });
  const [final] = await s.database.db
    .update(invitations)
    .set({ deliveryKind: delivery.kind, sentAt: delivery.sent ? s.clock() : null })
    .where(eq(invitations.id, row.id))
    .returning();
  const view = toInvitation((final ?? row) as InvitationRow, req.inviter.username, s.clock());
  return {
    ...view,
    delivery_kind: delivery.kind,
    ...(req.deliveryMode === "email" ? {} : { accept_url: url }),
  };
}

async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      if (i >= attempts || !isUniqueViolation(err)) throw err;
    }
  }
}
