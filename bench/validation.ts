import { type Database, sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, type ModelDocument, replaceModel, validateWorkspace, withChange } from "@ams/model";
import { interleaved, report, section } from "./lib.ts";

/**
 * Issue 27's validation targets: the built-in rules (documentation included) on an ArchiMetal-sized model (565
 * elements, 724 relationships, 72 views, as bench/history.ts sizes it) <= 50 ms and on the 100k-element model
 * (generateModel's shape) <= 3 s, on real PostgreSQL, each beside its floor measured in the same run, interleaved:
 * the same rules as plain SQL (floorQueries).
 */

async function load(database: Database, orgId: string, name: string, doc: ModelDocument): Promise<string> {
  const [ws] = await database.rows<{ id: string }>(
    sql`insert into workspaces (organization_id, name) values (${orgId}, ${name}) returning id`,
  );
  const id = ws?.id as string;
  const ctx = {
    database,
    userId: "bench",
    username: "bench",
    organizationId: orgId,
    workspaceId: id,
    role: "owner" as const,
    platformAdmin: false,
  };
  await withChange(ctx, { summary: "bench" }, (tx) => replaceModel(database, tx, id, doc));
  return id;
}

/**
 * The floor: each built-in rule's condition as one plain SQL statement, counted (every rule must look at every
 * finding to count it), nothing mapped to issues, no names fetched, run side by side on the pool as the verb runs.
 * The 3.1 table and the viewpoints are JavaScript: for those rules, the combinations present (what the table judges).
 */
export function floorQueries(ws: string) {
  return [
    // relationship_not_allowed (and missing_reference's relationship ends): the combinations present
    sql`select r.type, s.type, t.type, count(*) from relationships r
        left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
        left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
        where r.workspace_id = ${ws} group by 1, 2, 3`,
    // missing_reference: connections whose end is not on their view, element nodes or relationship connections
    // showing nothing
    sql`select count(*) from connections c
        left join view_nodes sn on sn.workspace_id = c.workspace_id and sn.id = c.source_id and sn.view_id = c.view_id
        left join connections sc on sn.id is null and sc.workspace_id = c.workspace_id and sc.id = c.source_id
          and sc.view_id = c.view_id
        left join view_nodes tn on tn.workspace_id = c.workspace_id and tn.id = c.target_id and tn.view_id = c.view_id
        left join connections tc on tn.id is null and tc.workspace_id = c.workspace_id and tc.id = c.target_id
          and tc.view_id = c.view_id
        where c.workspace_id = ${ws} and ((sn.id is null and sc.id is null) or (tn.id is null and tc.id is null)
          or (c.kind = 'relationship' and c.relationship_id is null))`,
    sql`select count(*) from view_nodes n where n.workspace_id = ${ws} and n.kind = 'element' and n.element_id is null`,
    // junction rules: each junction's relationships by type and direction
    sql`select j.id, r.type, r.target_id = j.id, count(*) from elements j
        join relationships r on r.workspace_id = j.workspace_id and (r.source_id = j.id or r.target_id = j.id)
        where j.workspace_id = ${ws} and j.type in ('AndJunction', 'OrJunction') group by 1, 2, 3`,
    // element_not_in_viewpoint: the (viewpoint, element type) pairs shown
    sql`select v.viewpoint, e.type, count(*) from view_nodes n
        join views v on v.workspace_id = n.workspace_id and v.id = n.view_id
        join elements e on e.workspace_id = n.workspace_id and e.id = n.element_id
        where n.workspace_id = ${ws} and v.viewpoint <> '' group by 1, 2`,
    sql`select count(*) from elements e where e.workspace_id = ${ws} and not exists
        (select 1 from view_nodes n where n.workspace_id = e.workspace_id and n.element_id = e.id)`,
    sql`select count(*) from relationships r where r.workspace_id = ${ws} and not exists
        (select 1 from connections c where c.workspace_id = r.workspace_id and c.relationship_id = r.id)`,
    sql`select count(*) from views v where v.workspace_id = ${ws} and not exists
        (select 1 from view_nodes n where n.workspace_id = v.workspace_id and n.view_id = v.id)`,
    // duplicate_element: same type, same name once trimmed, lower-cased and runs of white space made one
    sql`select coalesce(sum(n - 1), 0) from (select count(*) as n from elements
        where workspace_id = ${ws} and type not in ('AndJunction', 'OrJunction') and btrim(name) <> ''
        group by type, lower(regexp_replace(btrim(name), '\\s+', ' ', 'g')) having count(*) > 1) d`,
    sql`select count(*) from view_nodes c
        join view_nodes p on p.workspace_id = c.workspace_id and p.id = c.parent_id
        join elements ce on ce.workspace_id = c.workspace_id and ce.id = c.element_id
        join elements pe on pe.workspace_id = p.workspace_id and pe.id = p.element_id
        where c.workspace_id = ${ws} and c.parent_id is not null and ce.id <> pe.id and pe.type <> 'Grouping'
          and not exists (select 1 from relationships r where r.workspace_id = c.workspace_id
                            and r.source_id = pe.id and r.target_id = ce.id)
          and not exists (select 1 from relationships r where r.workspace_id = c.workspace_id
                            and r.source_id = ce.id and r.target_id = pe.id)`,
    sql`select count(*) from property_definitions d where d.workspace_id = ${ws} and not d.is_system and not exists
        (select 1 from property_values pv where pv.workspace_id = d.workspace_id and pv.definition_id = d.id)`,
    sql`select count(*) from elements e where e.workspace_id = ${ws} and e.type not in ('AndJunction', 'OrJunction')
        and coalesce(btrim(e.documentation), '') = ''`,
  ];
}

export async function benchValidation() {
  const database = await createTestDatabase("ams_bench_validation");
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench-validation', 'Validation') returning id`,
    );
    const orgId = org?.id as string;
    const small = await load(
      database,
      orgId,
      "ArchiMetal-sized",
      generateModel({ elements: 565, relationships: 724, views: 72, nodesPerView: 20, seed: 7, properties: true }),
    );
    const large = await load(database, orgId, "100k", generateModel({ elements: 100_000, seed: 42, properties: true }));
    await database.rows(sql`analyze`);
    const input = { include: ["documentation_missing"], limit: 1000 };
    for (const [label, ws, target, iterations] of [
      ["ArchiMetal-sized (565 elements, 724 relationships, 72 views)", small, 50, 40],
      ["the 100k-element model (200k relationships)", large, 3000, 5],
    ] as const) {
      section(`Validation of ${label}, PostgreSQL: every built-in rule, documentation included`);
      const verb = async () => {
        await validateWorkspace(database, ws, input, []);
      };
      const floor = async () => {
        await Promise.all(floorQueries(ws).map((q) => database.rows(q)));
      };
      const [f, v] = await interleaved([floor, verb], { iterations, warmup: 2 });
      report("floor: the same rules as plain SQL counts, median", f!.median, null, "(the floor)", true);
      report(`validateModel, median`, v!.median, f!.median, `<= ${target} ms`, v!.median <= target);
    }
  } finally {
    await database.drop();
  }
}
