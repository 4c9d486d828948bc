import type { Database } from "@ams/db";
import { accessVersionsOf } from "../auth/access-versions.ts";
import type { StandingResolver } from "./authorize.ts";
import type { Standing } from "./resolve.ts";

/** Users whose standings one replica keeps; all forgotten when full (more than the users one replica serves). */
const KEPT_USERS = 50_000;

type Kept = { version: number; answers: Map<string, Standing> };

/**
 * The gateway's standings (organization, role, teams, visibility), remembered per replica and believed only while
 * the user's counter in access_versions is the one read before they were resolved. The counter is raised by the
 * triggers of migration 0022 in the transaction that changes a membership, role, team membership, selection,
 * workspace, team assignment or organization rule, so every request reads it (one primary-key lookup, a statement
 * PostgreSQL plans once; on the embedded database, this process's memory of it, forgotten at the commit that raises
 * it: access-versions.ts) and a request that starts after such a commit, on any replica, sees the new counter and
 * resolves anew: a revoked or demoted membership takes effect at once, with no announcement to wait for.
 * Only answers with a membership are kept: a non-member's answer (404, or a platform admin's bypass) depends on
 * rows no counter of theirs covers.
 */
export function cachedStandings(database: Database, resolve: StandingResolver): StandingResolver {
  const users = new Map<string, Kept>();

  const versions = accessVersionsOf(database);
  const versionOf = (userId: string) => versions.of(userId);

  const through = async <T extends Standing>(
    userId: string,
    key: string,
    answer: () => Promise<T | null>,
  ): Promise<T | null> => {
    const version = await versionOf(userId);
    const kept = users.get(userId);
    const known = kept?.version === version ? kept.answers.get(key) : undefined;
    if (known) return known as T;
    // Resolved after the counter was read: a change committed in between makes the next request read a new counter.
    const fresh = await answer();
    if (fresh?.role) {
      const now = users.get(userId);
      if (now && now.version === version) now.answers.set(key, fresh);
      else if (!now || now.version < version) {
        if (!now && users.size >= KEPT_USERS) users.clear();
        users.set(userId, { version, answers: new Map([[key, fresh]]) });
      }
    }
    return fresh;
  };

  return {
    active: (userId, sessionOrganizationId) =>
      through(userId, `active:${sessionOrganizationId ?? ""}`, () => resolve.active(userId, sessionOrganizationId)),
    organization: (userId, organizationId) =>
      through(userId, `organization:${organizationId}`, () => resolve.organization(userId, organizationId)),
    workspace: (userId, workspaceId) =>
      through(userId, `workspace:${workspaceId}`, () => resolve.workspace(userId, workspaceId)),
  };
}
