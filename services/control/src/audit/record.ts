import { auditEvents, type DbOrTx, users } from "@ams/db";
import { eq } from "drizzle-orm";
import type { Principal } from "../auth/principal.ts";
import type { AuditKind } from "./kinds.ts";

/**
 * What recording needs of a verb's context, stated structurally: the verbs' contexts (verbs/context.ts) satisfy it
 * without audit/ importing them, which would close an import cycle through the session module that records events.
 */
type AnonymousCaller = { database: { db: DbOrTx }; address?: string };
type SignedInCaller = AnonymousCaller & { principal: Pick<Principal, "userId" | "username"> };

/** Who an event is about: a user's id and the name shown for them (their username at the time). */
export type AuditSubject = { id: string; name: string };

export type AuditEvent = {
  kind: AuditKind;
  /** Who did it; null when nobody signed in did (a failed sign-in, a set-password link, the system). */
  actor: AuditSubject | null;
  /** The user the event is about, when it is about one (the member added, the account disabled…). */
  target?: AuditSubject | null;
  /** The organization the event happened in: such events also appear in that organization's audit. */
  organizationId?: string | null;
  /** The client's address (auth/client-ip.ts: X-Forwarded-For as far as TRUST_PROXY_HOPS, else the socket). */
  address: string | null;
  /** A few facts worth keeping with the event (roles before/after, a token's or workspace's name…). No secrets. */
  details?: Record<string, unknown>;
  /** Defaults to the database's now(). */
  at?: Date;
};

/**
 * Records one audit event. Pass the transaction that makes the change when there is one, so the event exists exactly
 * when the change does; otherwise call it right after the change succeeded.
 */
export async function recordAuditEvent(db: DbOrTx, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    kind: event.kind,
    actorId: event.actor?.id ?? null,
    actorName: event.actor?.name ?? null,
    targetUserId: event.target?.id ?? null,
    targetName: event.target?.name ?? null,
    organizationId: event.organizationId ?? null,
    address: event.address,
    details: event.details ?? {},
    ...(event.at ? { occurredAt: event.at } : {}),
  });
}

/** The audit subject for a signed-in caller. */
export const subjectOf = (p: Pick<Principal, "userId" | "username">): AuditSubject => ({
  id: p.userId,
  name: p.username,
});

/** Who caused the events a lower-level function records in its own transaction, and from where. */
export type AuditBy = Pick<AuditEvent, "actor" | "address">;

export const auditByCaller = (ctx: SignedInCaller): AuditBy => ({
  actor: subjectOf(ctx.principal),
  address: ctx.address ?? null,
});

/** Records an event the signed-in caller of a verb caused, from the caller's address. */
export function recordCallerEvent(
  ctx: SignedInCaller,
  event: Omit<AuditEvent, "actor" | "address">,
  db: DbOrTx = ctx.database.db,
): Promise<void> {
  return recordAuditEvent(db, { ...event, actor: subjectOf(ctx.principal), address: ctx.address ?? null });
}

/** Records an event of an anonymous caller (a sign-in attempt, a set-password link), from the caller's address. */
export function recordAnonymousEvent(
  ctx: AnonymousCaller,
  event: Omit<AuditEvent, "actor" | "address"> & { actor?: AuditSubject | null },
  db: DbOrTx = ctx.database.db,
): Promise<void> {
  return recordAuditEvent(db, { actor: null, ...event, address: ctx.address ?? null });
}

/** The audit subject for a user id: their current username (the id itself when the account is gone). */
export async function userSubject(db: DbOrTx, userId: string): Promise<AuditSubject> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return { id: userId, name: row?.username ?? userId };
}
