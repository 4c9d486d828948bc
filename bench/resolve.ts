import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { resolveActive } from "../services/control/src/gateway/resolve.ts";
import { cachedStandings } from "../services/control/src/gateway/standing-cache.ts";
import { interleaved, report, section } from "./lib.ts";

const ORGANIZATIONS = 200;

/**
 * The gateway's per-request choice of organization and workspace (resolveActive), alone, on PGlite (the standalone
 * shape, where every statement is planned anew) and on PostgreSQL (named statements), for a member of an
 * organization without teams and of one with a team that their workspace is assigned to. The floor is the bare
 * membership row by user id. Beside them what the gateway does per request once it has resolved a user's standing
 * (cachedStandings: the user's access counter, one primary-key lookup, and the remembered answer). Short and CPU-light, so `pnpm bench:compare` can run it for many rounds.
 */
export async function benchResolve() {
  for (const kind of ["pglite", "postgresql"] as const) {
    const database =
      kind === "pglite" ? await openDatabase({ dataDir: "memory://" }) : await createTestDatabase("ams_bench_resolve");
    try {
      await seed(database);
      for (const user of ["r-1", "r-2"]) {
        const standing = await resolveActive(database, user);
        if (!standing?.workspaceId) throw new Error(`resolveActive(${user}) found no workspace: the seed is wrong`);
      }
      const floor = () => database.rows(sql`select role from memberships where user_id = ${"r-1"} limit 1`);
      section(`Gateway resolution (resolveActive), ${kind}: ${ORGANIZATIONS} organizations, half of them with a team`);
      const remembered = cachedStandings(database, {
        active: (user, preferred) => resolveActive(database, user, preferred),
        organization: () => Promise.resolve(null),
        workspace: () => Promise.resolve(null),
      });
      const [bare, plain, teams, rememberedPlain, rememberedTeams] = await interleaved(
        [
          floor,
          () => resolveActive(database, "r-1"),
          () => resolveActive(database, "r-2"),
          () => remembered.active("r-1"),
          () => remembered.active("r-2"),
        ],
        { iterations: 1000, warmup: 100 },
      );
      const line = (what: string, median: number) =>
        report(`resolveActive, ${kind}, ${what}, median`, median, bare!.median, "(informational)", true);
      line("member of an organization without teams", plain!.median);
      line("team member in an organization with teams", teams!.median);
      line("remembered by the gateway (access counter), member without teams", rememberedPlain!.median);
      line("remembered by the gateway (access counter), team member", rememberedTeams!.median);
    } finally {
      if ("drop" in database) await (database as { drop(): Promise<void> }).drop();
      else await database.close();
    }
  }
}

/** Users r-<n>, each an editor of organization <n>; the even organizations have a team holding their workspace. */
async function seed(db: Database) {
  const range = sql`generate_series(1, ${ORGANIZATIONS}::int) g`;
  await db.rows(sql`insert into users (id, name, email, username)
    select 'r-' || g, 'User ' || g, 'r-' || g || '@resolve.test', 'r-' || g from ${range}`);
  await db.rows(sql`insert into organizations (id, slug, name)
    select md5('r-org-' || g)::uuid, 'r-org-' || g, 'Org ' || g from ${range}`);
  await db.rows(sql`insert into memberships (organization_id, user_id, role)
    select md5('r-org-' || g)::uuid, 'r-' || g, 'editor' from ${range}`);
  await db.rows(
    sql`insert into workspaces (organization_id, name) select md5('r-org-' || g)::uuid, 'Main' from ${range}`,
  );
  const even = sql`generate_series(2, ${ORGANIZATIONS}::int, 2) g`;
  await db.rows(sql`insert into teams (id, organization_id, name)
    select md5('r-team-' || g)::uuid, md5('r-org-' || g)::uuid, 'Team' from ${even}`);
  await db.rows(
    sql`insert into team_members (team_id, user_id) select md5('r-team-' || g)::uuid, 'r-' || g from ${even}`,
  );
  await db.rows(sql`insert into workspace_teams (workspace_id, team_id)
    select w.id, md5('r-team-' || g)::uuid from ${even} join workspaces w on w.organization_id = md5('r-org-' || g)::uuid`);
  await db.rows(sql`analyze`);
}
