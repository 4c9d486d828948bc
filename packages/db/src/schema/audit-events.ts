import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The audit trail of account and organization events (sign-ins, password and two-factor changes, user and role
 * administration, memberships, invitations, teams, API tokens, workspaces): who did it (actor), to whom (target
 * user), in which organization, from which client address, when. Names are copied at the time of the event and no
 * foreign key ties a row to a user or an organization, so the trail outlives what it speaks about. Kept
 * AUDIT_RETENTION_DAYS (a periodic purge). Written by services/control/src/audit/record.ts only.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    targetUserId: text("target_user_id"),
    targetName: text("target_name"),
    organizationId: uuid("organization_id"),
    address: text("address"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    index("audit_events_time_idx").on(t.occurredAt),
    index("audit_events_org_idx").on(t.organizationId, t.id),
    index("audit_events_actor_idx").on(t.actorId, t.id),
    index("audit_events_target_idx").on(t.targetUserId, t.id),
  ],
);
