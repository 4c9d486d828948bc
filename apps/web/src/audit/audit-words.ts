import type { AuditEntry, AuditKind } from "../api/types.ts";

/** Each kind of audit event in words; a kind without words here shows as its code. */
export const AUDIT_KIND_WORDS: Partial<Record<AuditKind, string>> = {
  "sign_in.succeeded": "Signed in",
  "sign_in.failed": "Sign-in failed",
  "password.changed": "Password changed",
  "password.reset_requested": "Password reset requested",
  "password.reset": "Password reset by link",
  "password.set": "Password set by link",
  "two_factor.enabled": "Two-factor sign-in turned on",
  "two_factor.disabled": "Two-factor sign-in turned off",
  "two_factor.recovery_codes_regenerated": "Recovery codes renewed",
  "user.created": "User created",
  "user.updated": "User changed",
  "user.disabled": "User disabled",
  "user.enabled": "User enabled",
  "user.deleted": "User deleted",
  "user.password_reset_by_admin": "Password reset by the administrator",
  "user.platform_role_changed": "Platform role changed",
  "organization.created": "Organization created",
  "organization.updated": "Organization changed",
  "organization.deleted": "Organization deleted",
  "member.added": "Member added",
  "member.role_changed": "Member's role changed",
  "member.removed": "Member removed",
  "invitation.created": "Invitation sent",
  "invitation.resent": "Invitation sent again",
  "invitation.revoked": "Invitation revoked",
  "invitation.accepted": "Invitation accepted",
  "team.created": "Team created",
  "team.renamed": "Team renamed",
  "team.deleted": "Team deleted",
  "team.member_added": "Added to a team",
  "team.member_removed": "Removed from a team",
  "workspace.teams_changed": "Workspace's teams changed",
  "api_token.created": "API token created",
  "api_token.revoked": "API token revoked",
  "workspace.created": "Workspace created",
  "workspace.renamed": "Workspace renamed",
  "workspace.deleted": "Workspace deleted",
};

/** The kinds an organization's own audit can hold (the rest are account events, the platform admin's alone). */
export const ORGANIZATION_KINDS = (Object.keys(AUDIT_KIND_WORDS) as AuditKind[]).filter(
  (k) => !/^(sign_in|password|two_factor|user)\./.test(k),
);

export const kindWords = (kind: string) => AUDIT_KIND_WORDS[kind as AuditKind] ?? kind;

/** The facts of an event worth a glance, in one line (roles, names, addresses, reasons). */
export function detailWords(e: AuditEntry): string {
  const d = e.details as Record<string, unknown>;
  const parts: string[] = [];
  const pair = (v: unknown) =>
    v && typeof v === "object" && "from" in v && "to" in v ? `${String(v.from)} → ${String(v.to)}` : null;
  if (typeof d.from === "string" || typeof d.to === "string") parts.push(`${String(d.from)} → ${String(d.to)}`);
  for (const key of ["name", "email"]) {
    const changed = pair(d[key]);
    if (changed) parts.push(`${key}: ${changed}`);
    else if (typeof d[key] === "string") parts.push(String(d[key]));
  }
  if (typeof d.role === "string") parts.push(`role ${d.role}`);
  if (typeof d.reason === "string") parts.push(String(d.reason).replace(/_/g, " "));
  if (typeof d.username === "string" && !e.target) parts.push(`as "${d.username}"`);
  if (typeof d.enabled === "boolean") parts.push(d.enabled ? "reactivated" : "suspended");
  return parts.join(" · ");
}
