import { invalid } from "@ams/shared";
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
