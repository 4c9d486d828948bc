import type { Database } from "@ams/db";
import { type SQL, sql } from "drizzle-orm";
import { normalizeUsername } from "../auth/users.ts";
import type { AuditEntry, AuditPage, AuditQuery } from "./schemas.ts";

type Row = {
  id: string | number;
  occurred_at: Date | string;
  kind: string;
  actor_id: string | null;
  actor_name: string | null;
  target_user_id: string | null;
  target_name: string | null;
  organization_id: string | null;
  organization_name: string | null;
  address: string | null;
  details: Record<string, unknown> | null;
};

/**
 * One page of audit events, newest first, optionally inside one organization. Keyset paging on the id (an identity:
 * later events have larger ids), so a page costs the same however deep it is; every filter is in the WHERE clause.
 */
export async function listAuditEvents(
  database: Database,
  query: AuditQuery,
  scope: { organizationId?: string } = {},
): Promise<AuditPage> {
  const where: SQL[] = [];
  if (scope.organizationId) where.push(sql`e.organization_id = ${scope.organizationId}`);
  if (query.user) where.push(await userFilter(database, query.user));
  if (query.kind?.length)
    where.push(
      sql`e.kind in (${sql.join(
        query.kind.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  if (query.from) where.push(sql`e.occurred_at >= ${query.from}::timestamptz`);
  if (query.to) where.push(sql`e.occurred_at <= ${query.to}::timestamptz`);
  if (query.before) where.push(sql`e.id < ${query.before}`);
  const rows = await database.rows<Row>(sql`
    select e.id, e.occurred_at, e.kind, e.actor_id, e.actor_name, e.target_user_id, e.target_name,
      e.organization_id, o.name as organization_name, e.address, e.details
    from audit_events e
    left join organizations o on o.id = e.organization_id
    ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by e.id desc
    limit ${query.limit + 1}`);
  const items = rows.slice(0, query.limit).map(toEntry);
  const last = items[items.length - 1];
  return { items, next_before: rows.length > query.limit && last ? last.id : null };
}

/** A username (of an existing account) or else a user id; deleted accounts are found by the name kept in the row. */
async function userFilter(database: Database, user: string): Promise<SQL> {
  const [found] = await database.rows<{ id: string }>(
    sql`select id from users where username = ${normalizeUsername(user)}`,
  );
  if (found) return sql`(e.actor_id = ${found.id} or e.target_user_id = ${found.id})`;
  const name = normalizeUsername(user);
  return sql`(e.actor_id = ${user} or e.target_user_id = ${user} or e.actor_name = ${name} or e.target_name = ${name})`;
}

function toEntry(r: Row): AuditEntry {
  return {
    id: Number(r.id),
    occurred_at: new Date(r.occurred_at).toISOString(),
    kind: r.kind,
    actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? r.actor_id } : null,
    target: r.target_user_id ? { id: r.target_user_id, name: r.target_name ?? r.target_user_id } : null,
    organization: r.organization_id
      ? { id: r.organization_id, name: r.organization_name ?? detailName(r.details) }
      : null,
    address: r.address,
    details: r.details ?? {},
  };
}

const detailName = (details: Record<string, unknown> | null) =>
  typeof details?.name === "string" ? details.name : null;
