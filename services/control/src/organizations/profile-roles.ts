import { AppError, invalid, type OrgRole } from "@ams/shared";
import type { ControlEnv } from "../env.ts";
import type { MemberRole } from "./schemas.ts";

/**
 * The organization roles each profile offers: the local profile's owner/editor/viewer; the session profile's
 * owner/admin (as owner, but cannot delete the organization)/member (reads only). The capability table in
 * packages/shared knows all five, so one authorization function serves both profiles.
 */
export const profileRoles = {
  local: ["owner", "editor", "viewer"],
  session: ["owner", "admin", "member"],
} as const satisfies Record<ControlEnv["AUTH_MODE"], readonly MemberRole[]>;

/** 422 naming the roles of this profile when `role` is not one of them. */
export function assertProfileRole(env: Pick<ControlEnv, "AUTH_MODE">, role: MemberRole, path = "role"): void {
  const allowed: readonly string[] = profileRoles[env.AUTH_MODE];
  if (!allowed.includes(role)) throw invalid(path, `must be one of ${allowed.join(", ")} in this profile`);
}

/**
 * Only an owner grants, changes or takes away the owner role: otherwise an admin (as powerful as an owner but for
 * deleting the organization) could make themselves owner and then demote or remove the owners. `callerRole` is
 * the caller's role in the organization; the platform admin's own routes do not call this.
 */
export function assertMayTouchOwnerRole(callerRole: OrgRole | string, roles: (string | undefined)[]): void {
  if (callerRole === "owner" || !roles.includes("owner")) return;
  throw new AppError("FORBIDDEN", "Only an owner may grant, change or remove the owner role");
}
