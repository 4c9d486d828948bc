import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

/**
 * E-mail invitations to an organization. Only the SHA-256 of the clear token is stored: the clear token exists in
 * the e-mail and the accept URL alone. Active means neither accepted nor revoked (an expired one stays active until
 * it is replaced or revoked); at most one active invitation per (organization, lower(email)), enforced here.
 * sent_at stays null while the e-mail has not gone out, so the invitation is resent rather than lost.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** owner | editor | viewer: the membership role granted on accept. */
    role: text("role").notNull(),
    /** both | email | manual */
    deliveryMode: text("delivery_mode").notNull(),
    /** manual | invitation | onboarding, set once delivery was decided; null before. */
    deliveryKind: text("delivery_kind"),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: text("accepted_by"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("invitations_active_email_uq")
      .on(t.organizationId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    index("invitations_organization_idx").on(t.organizationId, t.createdAt),
  ],
);
