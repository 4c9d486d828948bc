import type { Database } from "@ams/db";
import { type SQL, sql } from "drizzle-orm";
import { PLATFORM_ADMIN_ROLE } from "../auth/claims.ts";
import type { ListUsersQuery, PlatformUser, PlatformUserPage } from "./schemas.ts";

type Row = {
  id: string;
  username: string;
  name: string;
  email: string;
  role: string;
  banned: boolean;
  must_change_password: boolean;
  created_at: Date | string;
  last_sign_in_at: Date | string | null;
  organizations: { id: string; name: string; role: string }[] | null;
  total?: number;
};

const columns = sql`u.id, u.username, u.name, u.email, u.role, u.banned, u.must_change_password, u.created_at,
  (select max(e.occurred_at) from audit_events e where e.actor_id = u.id and e.kind = 'sign_in.succeeded')
    as last_sign_in_at,
  (select json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) order by o.name, o.id)
     from memberships m join organizations o on o.id = m.organization_id where m.user_id = u.id) as organizations`;

/** Accounts by username, optionally those whose username, name or e-mail contains `q`, one page and the total. */
export async function listPlatformUsers(database: Database, query: ListUsersQuery): Promise<PlatformUserPage> {
  const where = query.q ? matching(query.q) : sql`true`;
  const rows = await database.rows<Row>(sql`
    select ${columns}, count(*) over ()::int as total from users u where ${where}
    order by u.username limit ${query.limit} offset ${query.offset}`);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.offset > 0) {
    const [count] = await database.rows<{ n: number }>(sql`select count(*)::int as n from users u where ${where}`);
    total = count?.n ?? 0;
  }
  return { items: rows.map(toPlatformUser), total, limit: query.limit, offset: query.offset };
}

export async function getPlatformUser(database: Database, id: string): Promise<PlatformUser | null> {
  const [row] = await database.rows<Row>(sql`select ${columns} from users u where u.id = ${id}`);
  return row ? toPlatformUser(row) : null;
}

/** A substring match with LIKE's wildcards in `q` taken literally. */
function matching(q: string): SQL {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return sql`(u.username like ${pattern} or lower(u.name) like ${pattern} or u.email like ${pattern})`;
}

function toPlatformUser(r: Row): PlatformUser {
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    email: r.email,
    role: r.role === PLATFORM_ADMIN_ROLE ? "platform_admin" : "user",
    disabled: r.banned,
    must_change_password: r.must_change_password,
    created_at: new Date(r.created_at).toISOString(),
    last_sign_in_at: r.last_sign_in_at === null ? null : new Date(r.last_sign_in_at).toISOString(),
    organizations: r.organizations ?? [],
  };
}
