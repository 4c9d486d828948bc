import type { invitations } from "@ams/db";
import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";
import { MemberRole } from "../organizations/schemas.ts";

export const DeliveryMode = z.enum(["both", "email", "manual"]);
export type DeliveryMode = z.infer<typeof DeliveryMode>;
export const DeliveryKind = z.enum(["manual", "invitation", "onboarding"]);
export type DeliveryKind = z.infer<typeof DeliveryKind>;
export const InvitationStatus = z.enum(["active", "expired", "accepted", "revoked"]);

const Email = z.string().trim().max(254).pipe(z.email());

export const CreateInvitationInput = z.object({
  email: Email,
  role: MemberRole,
  delivery_mode: DeliveryMode.default("both"),
});

export type CreateInvitationInput = z.infer<typeof CreateInvitationInput>;

export const ResendInvitationInput = z.object({ delivery_mode: DeliveryMode.optional() });

export const ListInvitationsQuery = z.object({
  /** pending (default): neither accepted nor revoked, expired ones included (they can be resent); all: history. */
  status: z.enum(["pending", "all"]).default("pending"),
});

export type ListInvitationsQuery = z.infer<typeof ListInvitationsQuery>;

/** An invitation as listed: never the clear link, never how it was delivered. */
export const Invitation = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    email: z.string(),
    role: z.string(),
    delivery_mode: DeliveryMode,
    status: InvitationStatus,
    invited_by: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    sent_at: z.string().nullable(),
    accepted_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .openapi("Invitation");

/** The answer of create and resend: the only place the one-time link appears (absent for delivery_mode email). */
export const IssuedInvitation = Invitation.extend({
  delivery_kind: DeliveryKind,
  accept_url: z.string().optional(),
}).openapi("IssuedInvitation");

export const InvitationPreview = z
  .object({
    organization: z.object({ id: z.string(), name: z.string() }),
    email: z.string(),
    role: z.string(),
    invited_by: z.string().nullable(),
    expires_at: z.string(),
  })
  .openapi("InvitationPreview");

export const AcceptedInvitation = z
  .object({
    organization_id: z.string(),
    role: z.string(),
    /** True when the caller was a member already: the membership (and its role) is left as it was. */
    already_member: z.boolean(),
  })
  .openapi("AcceptedInvitation");

/** POST /api/invitations/{token}/register: the new account (its e-mail is the invited address). */
export const RegisterInput = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._@-]+$/, "letters, digits and . _ @ - only"),
  name: z.string().trim().min(1).max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});
export type RegisterInput = z.infer<typeof RegisterInput>;

export const RegisteredAccount = z
  .object({
    user: z.object({ id: z.string(), username: z.string(), name: z.string(), email: z.string() }),
    organization: z.object({ id: z.string(), name: z.string() }),
    role: z.string(),
  })
  .openapi("RegisteredAccount");

export type InvitationRow = typeof invitations.$inferSelect;
export type InvitationView = z.infer<typeof Invitation>;

const isoOf = (d: Date | string) => new Date(d).toISOString();
const iso = (d: Date | string | null) => (d === null ? null : isoOf(d));

export function invitationStatus(row: InvitationRow, now: Date): z.infer<typeof InvitationStatus> {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return new Date(row.expiresAt).getTime() <= now.getTime() ? "expired" : "active";
}

export function toInvitation(row: InvitationRow, invitedBy: string | null, now: Date): InvitationView {
  return {
    id: row.id,
    organization_id: row.organizationId,
    email: row.email,
    role: row.role,
    delivery_mode: row.deliveryMode as DeliveryMode,
    status: invitationStatus(row, now),
    invited_by: invitedBy,
    created_at: isoOf(row.createdAt),
    expires_at: isoOf(row.expiresAt),
    sent_at: iso(row.sentAt),
    accepted_at: iso(row.acceptedAt),
    revoked_at: iso(row.revokedAt),
  };
}
