import { apiTokens, type Database, type DbOrTx, memberships, organizations, users } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type AuditBy, recordAuditEvent } from "../audit/record.ts";
import type { UserDirectory } from "../auth/directory.ts";
import { assertMayTouchOwnerRole } from "./profile-roles.ts";
import type { MemberRole } from "./schemas.ts";

export type MemberView = { userId: string; username: string; name: string; role: string };

/** Members with username and role, owners first. Used by owners' routes and by platform admin alike. */
export async function listMembers(database: Database, organizationId: string): Promise<MemberView[]> {
  const rows = await database.db
    .select({ userId: memberships.userId, username: users.username, name: users.name, role: memberships.role })
    .from(memberships)
    .leftJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(
      sql`case ${memberships.role} when 'owner' then 0 when 'admin' then 1 when 'editor' then 2 else 3 end`,
      asc(users.username),
    );
  return rows.map((r) => ({ userId: r.userId, username: r.username ?? "", name: r.name ?? "", role: r.role }));
}

/** Adds an existing account by username; 422 when there is none (invite by e-mail instead), 409 when a member. */
export async function addMember(
  database: Database,
  directory: UserDirectory,
  organizationId: string,
  input: { username: string; role: MemberRole },
  now: Date,
  by: AuditBy,
): Promise<MemberView> {
  const account = await directory.findByUsername(input.username);
  if (!account) throw invalid("username", "no account has this username; invite the person by e-mail instead");
  await database.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(memberships)
      .values({ organizationId, userId: account.id, role: input.role, createdAt: now })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (inserted.length === 0) throw new AppError("CONFLICT", `'${account.username}' is already a member`);
    await recordAuditEvent(tx, {
      ...by,
      kind: "member.added",
      organizationId,
      target: { id: account.id, name: account.username },
      details: { role: input.role },
    });
  });
  return { userId: account.id, username: account.username, name: account.name, role: input.role };
}

/**
 * Changes a member's role; demoting the last owner is refused (409), whoever asks. With `callerRole` (an
 * organization member's call, not the platform admin's), only an owner may make or unmake an owner (403).
 */
export function updateMemberRole(
  database: Database,
  organizationId: string,
  userId: string,
  role: MemberRole,
  by: AuditBy,
  callerRole?: string,
): Promise<MemberView> {
  return database.db.transaction(async (tx) => {
    const current = await lockMember(tx, organizationId, userId);
    if (callerRole !== undefined) assertMayTouchOwnerRole(callerRole, [current.role, role]);
    if (current.role === "owner" && role !== "owner") await refuseLastOwner(tx, organizationId, "demote");
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    const [user] = await tx
      .select({ username: users.username, name: users.name })
      .from(users)
      .where(eq(users.id, userId));
    if (current.role !== role) {
      await recordAuditEvent(tx, {
        ...by,
        kind: "member.role_changed",
        organizationId,
        target: { id: userId, name: user?.username ?? userId },
        details: { from: current.role, to: role },
      });
    }
    return { userId, username: user?.username ?? "", name: user?.name ?? "", role };
  });
}

/**
 * Removes a member (self-removal included); removing the last owner is refused (409). The member's API tokens
 * for this organization are revoked with the membership. With `callerRole`, only an owner may remove an owner.
 */
export function removeMember(
  database: Database,
  organizationId: string,
  userId: string,
  now: Date,
  by: AuditBy,
  callerRole?: string,
): Promise<void> {
  return database.db.transaction(async (tx) => {
    const current = await lockMember(tx, organizationId, userId);
    if (callerRole !== undefined) assertMayTouchOwnerRole(callerRole, [current.role]);
    const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
    await recordAuditEvent(tx, {
      ...by,
      kind: "member.removed",
      organizationId,
      target: { id: userId, name: user?.username ?? userId },
      details: { role: current.role },
    });
    if (current.role === "owner") await refuseLastOwner(tx, organizationId, "remove");
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(
        and(eq(apiTokens.organizationId, organizationId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)),
      );
  });
}

/**
 * Locks the organization row first, so two owners demoting each other concurrently are serialized and the
 * owner count each one sees is current.
 */
async function lockMember(tx: DbOrTx, organizationId: string, userId: string): Promise<{ role: string }> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
  const [member] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  if (!member) throw new AppError("NOT_FOUND", "Member not found");
  return member;
}

async function refuseLastOwner(tx: DbOrTx, organizationId: string, verb: "demote" | "remove"): Promise<void> {
  const [row] = await tx
    .select({ owners: sql<number>`count(*)::int` })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
  const owners = row?.owners ?? 0;
  if (owners <= 1) {
    throw new AppError(
      "CONFLICT",
      `Cannot ${verb} the last owner of the organization; make another member owner first`,
    );
  }
}
