import { type Database, sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, type ModelDocument, replaceModel, validateWorkspace, withChange } from "@ams/model";
import { interleaved, report, section } from "./lib.ts";

/**
 * Issue 27's validation targets: the built-in rules (documentation included) on an ArchiMetal-sized model (565
 * elements, 724 relationships, 72 views, as bench/history.ts sizes it) <= 50 ms and on the 100k-element model
 * (generateModel's shape) <= 3 s, on real PostgreSQL. The floor, measured in the same run and interleaved: the same
 * rules' core statements as plain SQL (one anti-join or group per rule, nothing mapped to issues).
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

/** The rules' statements as plain SQL: what the database must do at least, without the verb around it. */
function floorQueries(ws: string) {
  return [
    sql`select r.type, s.type, t.type from relationships r
        left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
        left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
        where r.workspace_id = ${ws} group by 1, 2, 3`,
    sql`select e.id from elements e where e.workspace_id = ${ws} and not exists
        (select 1 from view_nodes n where n.workspace_id = e.workspace_id and n.element_id = e.id)`,
    sql`select r.id from relationships r where r.workspace_id = ${ws} and not exists
        (select 1 from connections c where c.workspace_id = r.workspace_id and c.relationship_id = r.id)`,
    sql`select v.id from views v where v.workspace_id = ${ws} and not exists
        (select 1 from view_nodes n where n.workspace_id = v.workspace_id and n.view_id = v.id)`,
    sql`select id from (select id, count(*) over (partition by type, lower(btrim(name))) n from elements
        where workspace_id = ${ws}) d where n > 1`,
    sql`select c.id from view_nodes c join view_nodes p on p.workspace_id = c.workspace_id and p.id = c.parent_id
        where c.workspace_id = ${ws} and not exists (select 1 from relationships r where r.workspace_id = c.workspace_id
          and r.source_id = p.element_id and r.target_id = c.element_id)`,
    sql`select d.id from property_definitions d where d.workspace_id = ${ws} and not exists
        (select 1 from property_values pv where pv.workspace_id = d.workspace_id and pv.definition_id = d.id)`,
    sql`select e.id from elements e where e.workspace_id = ${ws} and coalesce(e.documentation, '') = ''`,
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
      report("floor: the rules' statements as plain SQL, median", f!.median, null, "(the floor)", true);
      report(`validateModel, median`, v!.median, f!.median, `<= ${target} ms`, v!.median <= target);
    }
  } finally {
    await database.drop();
  }
}
