/**
 * Every kind of audit event, by area. A helper adding a flow adds its kinds here (the listing's `kind` filter and the
 * pages read this list). Account events are listed for the platform admin; the organization's own events (those
 * recorded with an organization) also on the organization's Audit tab.
 */
export const AuditKinds = [
  // Sign-in and passwords
  "sign_in.succeeded",
  "sign_in.failed",
  "password.changed",
  "password.reset_requested",
  "password.reset",
  "password.set",
  // Two-factor sign-in
  "two_factor.enabled",
  "two_factor.disabled",
  "two_factor.recovery_codes_regenerated",
  "two_factor.recovery_code_used",
  // User administration (platform admin)
  "user.created",
  "user.updated",
  "user.disabled",
  "user.enabled",
  "user.deleted",
  "user.password_reset_by_admin",
  "user.platform_role_changed",
  // Organizations
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "member.added",
  "member.role_changed",
  "member.removed",
  "invitation.created",
  "invitation.resent",
  "invitation.revoked",
  "invitation.accepted",
  "team.created",
  "team.renamed",
  "team.deleted",
  "team.member_added",
  "team.member_removed",
  "workspace.teams_changed",
  "api_token.created",
  "api_token.revoked",
  "workspace.created",
  "workspace.renamed",
  "workspace.deleted",
] as const;

export type AuditKind = (typeof AuditKinds)[number];
