import { readFileSync } from "node:fs";
import { scopeLabel } from "@ams/model";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { archimateDir } from "./support/samples.ts";
import { type GraphTenant, graphTenant } from "./support/tenant-graph.ts";

const archisurance = readFileSync(`${archimateDir}models/archi-tests/archisurance_archi-export.xml`, "utf8");

let n4j: TestNeo4j;
let h: GraphTenant;
let a: Awaited<ReturnType<GraphTenant["organization"]>>;
let b: Awaited<ReturnType<GraphTenant["organization"]>>;
let a2: string;
let secretIds: { id: string; elementId: string; nodeId: number };
let totals: { nodes: number; elements: number };

const nodeCount = async (label: string) =>
  Number((await n4j.driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`)).records[0]!.get("c"));

beforeAll(async () => {
  n4j = await startTestNeo4j();
  h = await graphTenant(n4j);
  // Organization A: archisurance plus a marked element in its active workspace, a secret in its second workspace.
  a = await h.organization(archisurance);
  expect((await a.owner.post("/api/elements", { name: "ALPHA-VISIBLE", type: "ApplicationComponent" })).status).toBe(
    201,
  );
  const second = await a.owner.post("/api/workspaces", { name: "Second" });
  a2 = second.body.id;
  const inA2 = a.as("owner", a2);
  expect((await inA2.post("/api/elements", { name: "SECRET-A2", type: "ApplicationComponent" })).status).toBe(201);
  // Organization B: the same file (same identifiers) plus its own secret.
  b = await h.organization(archisurance);
  const secret = await b.owner.post("/api/elements", { name: "SECRET-B", type: "ApplicationComponent" });
  for (const c of [a.editor, inA2, b.owner]) expect((await c.post("/api/export/neo4j")).status).toBe(200);
  const { records } = await n4j.driver.executeQuery(
    `MATCH (n:Element:${scopeLabel(b.workspaceId, "A")} {id: $id}) RETURN elementId(n) AS e, id(n) AS i`,
    { id: secret.body.id },
  );
  secretIds = { id: secret.body.id, elementId: records[0]!.get("e"), nodeId: Number(records[0]!.get("i")) };
  totals = {
    nodes: await nodeCount(scopeLabel(a.workspaceId, "A")),
    elements: await nodeCount(`Element:${scopeLabel(a.workspaceId, "A")}`),
  };
}, 400_000);

afterAll(async () => {
  await h?.close();
  await n4j?.stop();
});

const explore = (query: string, parameters?: Record<string, unknown>) =>
  a.viewer.post("/api/explore", { query, parameters });

describe("explore answers questions about the active workspace", () => {
  test("columns, rows, nodes and relationships", async () => {
    const res = await explore(
      "MATCH (c:ApplicationComponent {name: 'ALPHA-VISIBLE'}) RETURN c, c.name, labels(c) AS labels",
    );
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual(["c", "c.name", "labels"]);
    expect(res.body.rows[0][1]).toBe("ALPHA-VISIBLE");
    expect(res.body.nodes).toHaveLength(1);
    expect(res.body.nodes[0].labels.sort()).toEqual(["ApplicationComponent", "Element"]);
    const paths = await explore("MATCH p = (a:ApplicationComponent)-[:SERVING]->(b) RETURN p LIMIT 5");
    expect(paths.status).toBe(200);
    expect(paths.body.relationships.length).toBeGreaterThan(0);
    expect(paths.body.relationships[0].type).toBe("SERVING");
  });

  test("one element by id is found (through the Element(id) index), another workspace's id finds nothing", async () => {
    const query = "MATCH (a:Element {id: $id}) RETURN a.name AS name";
    const mine = await explore("MATCH (c:ApplicationComponent {name: 'ALPHA-VISIBLE'}) RETURN c.id");
    const res = await explore(query, { id: mine.body.rows[0][0] });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([["ALPHA-VISIBLE"]]);
    const other = await explore(query, { id: secretIds.id });
    expect(other.status).toBe(200);
    expect(other.body.rows).toEqual([]);
  });

  test("the row cap is reported; the time limit stops a runaway query", async () => {
    const capped = await explore("UNWIND range(1, 5000) AS i RETURN i");
    expect(capped.body).toMatchObject({ truncated: true, rowCap: 1000 });
    expect(capped.body.rows).toHaveLength(1000);
    const quick = await graphTenant(n4j, { graph: { queryTimeoutMs: 300 } });
    try {
      const o = await quick.organization();
      await o.owner.post("/api/elements", { name: "Slow goal", type: "Goal" });
      expect((await o.owner.post("/api/export/neo4j")).status).toBe(200);
      // Ten million rows from bounded lists: Neo4j checks the time limit between rows and stops it.
      const slow = await o.viewer.post("/api/explore", {
        query:
          "UNWIND range(1, 10000) AS i UNWIND range(1, 100) AS j UNWIND [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] AS k " +
          "WITH i WHERE (i * j * k) % 7 = 1 RETURN count(*) AS c",
      });
      expect(slow.status).toBe(422);
      expect(slow.body.detail).toMatch(/time limit of 300 ms/);
    } finally {
      await quick.close();
    }
  });

  test("a query Neo4j could not interrupt is refused before it runs, and the graph answers the next one at once", async () => {
    const started = Date.now();
    const runaway = await explore("RETURN size(reduce(s = '', x IN range(1, 5000000) | s + 'aaaaaaaaaa')) AS n");
    expect(runaway.status).toBe(422);
    expect(runaway.body.detail).toMatch(/range\(\) may build at most 10000 values/);
    const nested = await explore("RETURN [x IN range(1, 10000) | [y IN range(1, 10000) | x * y]] AS grid");
    expect(nested.status).toBe(422);
    expect(nested.body.detail).toMatch(/at most 1000000 values together/);
    const computed = await explore("MATCH (c:ApplicationComponent) RETURN range(1, size(c.name) * 1000000) AS r");
    expect(computed.status).toBe(422);
    expect(computed.body.detail).toMatch(/integer literals as bounds/);
    const next = await explore("RETURN 1 AS one");
    expect(next.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test("20 concurrent explore calls from one user: the ones past the user's slots get 429 with Retry-After", async () => {
    const query =
      "UNWIND range(1, 10000) AS i UNWIND range(1, 50) AS j WITH i WHERE (i * j) % 3 = 1 RETURN count(*) AS c";
    const answers = await Promise.all(Array.from({ length: 20 }, () => explore(query)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(16);
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe("1");
      expect(r.body.detail).toMatch(/Too many graph queries are running for you/);
    }
    // Slots come back: once they finished, the same user queries again.
    expect((await explore("RETURN 1 AS one")).status).toBe(200);
  });

  test("hostile parameters and a shortestPath from a node to itself are refused with a 422 naming the field", async () => {
    let nested: unknown = "leaf";
    for (let i = 0; i < 1000; i++) nested = [nested];
    const deep = await explore("RETURN $p AS p", { p: nested });
    expect(deep.status).toBe(422);
    expect(deep.body.errors[0].path).toBe("parameters");
    expect(deep.body.detail).toMatch(/nested deeper than 32 levels/);
    const self = await explore(
      "MATCH (c:ApplicationComponent {name: 'ALPHA-VISIBLE'}) MATCH p = shortestPath((c)-[*]-(c)) RETURN p",
    );
    expect(self.status, self.text).toBe(422);
    expect(self.body.detail).toMatch(/shortestPath needs two different nodes/);
    const nul = await explore("RETURN $p AS p", { p: "a\u0000b" });
    expect(nul.status).toBe(422);
    expect(nul.body.errors[0].path).toBe("parameters.p");
  });

  test("a graph never built is built on its first use: meanwhile explore says how far the build has come", async () => {
    const res = await a.as("viewer", a2).post("/api/explore", { query: "MATCH (n) RETURN n" });
    expect(res.status).toBe(200); // a2 was rebuilt; a fresh workspace is not:
    const fresh = await a.owner.post("/api/workspaces", { name: "Fresh" });
    const inFresh = a.as("viewer", fresh.body.id);
    const none = await inFresh.post("/api/explore", { query: "MATCH (n) RETURN count(n) AS n" });
    expect(none.status).toBe(503);
    expect(none.body.detail).toMatch(/^Building the graph of this workspace \(\d+%\)$/);
    expect(none.body.detail).not.toMatch(/api|rebuild/i);
    expect(none.headers.get("retry-after")).toBe("1");
    let built = none;
    for (let i = 0; i < 200 && built.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      built = await inFresh.post("/api/explore", { query: "MATCH (n) RETURN count(n) AS n" });
    }
    expect(built.status, built.text).toBe(200);
    expect(built.body.graph).toMatchObject({ behind: 0 });
    expect(built.body.graph.revision).toBe(built.body.graph.model_revision);
  });
});

/** Queries that must be refused outright, each with words of the reason. */
const REFUSED: [string, RegExp][] = [
  ["CREATE (n:Element {name: 'x'}) RETURN n", /CREATE.*read-only/],
  ["MATCH (n) DETACH DELETE n", /DETACH DELETE/],
  ["MATCH (n) SET n.name = 'pwned' RETURN n", /SET/],
  ["MERGE (n:Element {id: 'x'}) RETURN n", /MERGE/],
  ["MATCH (n) REMOVE n.name RETURN n", /REMOVE/],
  ["MATCH (n) FOREACH (x IN [1] | SET n.p = 1) RETURN n", /FOREACH/],
  ["CALL db.labels() YIELD label RETURN label", /CALL/],
  ["CALL { MATCH (n) RETURN n } RETURN n", /CALL/],
  ["MATCH (n) WITH n CALL (n) { MATCH (m) RETURN m } RETURN m", /CALL/],
  ["MATCH (n) WITH n LIMIT 1 CALL db.createLabel('X') RETURN n", /CALL/],
  ["LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", /LOAD CSV/],
  ["USE system SHOW USERS", /USE/],
  ["SHOW DATABASES", /SHOW/],
  ["CREATE INDEX x FOR (n:Element) ON (n.name)", /CREATE/],
  ["DROP CONSTRAINT graph_meta_workspace", /schema/],
  ["MATCH (n) RETURN n; MATCH (m) DETACH DELETE m", /multiple statements/],
  ["MATCH (n) RETURN n /* ; */ ; CREATE (x)", /multiple statements/],
  ["EXPLAIN MATCH (n) RETURN n", /EXPLAIN/],
  ["CYPHER runtime=interpreted MATCH (n) RETURN n", /CYPHER options/],
  ["MATCH (n:$('GraphMeta')) RETURN n", /dynamic labels/],
  ["MATCH (n:$($label)) RETURN n", /dynamic labels/],
  ["RETURN apoc.cypher.runFirstColumnMany('MATCH (n) RETURN n', {}) AS x", /function .* not allowed/],
  ["MATCH (n) WHERE EXISTS { MATCH (m) CREATE (x) } RETURN n", /CREATE/],
  ["MATCH (n) RETURN n.name AS x UNION MATCH (m) DETACH DELETE m RETURN m.name AS x", /DETACH DELETE/],
  ["MATCH (n)\u2212[r]\u2212(m) RETURN m", /unexpected character 'U\+2212'/],
  ["MATCH (`n\\u0060`) RETURN 1", /backslash/],
  ["MATCH (n) RETURN n\u037E MATCH (m) DETACH DELETE m", /unexpected character/],
  ["MATCH ((a)-->(b)){1,3} RETURN a", /quantified/],
  ["MATCH (a)-->+(b) RETURN a", /quantified/],
  ["MATCH (n) FINISH", /FINISH/],
  ["MATCH (n:Element) USING SCAN n:GraphMeta RETURN n", /hints/],
  ["MATCH (n) RETURN n /* unterminated", /not closed/],
  ["MATCH (n) WHERE n.name = 'unterminated RETURN n", /not closed/],
  ["MATCH (n) RETURN n.name AS `x", /not closed/],
  ["MATCH (n {name: '\\q'}) RETURN n", /unknown escape/],
  ["MATCH (n $props) RETURN n", /property maps/],
  ["MATCH SHORTEST 1 (a)-->+(b) RETURN a", /path selectors/],
  ["MATCH (n) RETURN exists(n.name)", /exists/],
  ["MATCH (n) RETURN n.name // ;\n; DETACH DELETE n", /multiple statements/],
];

/** Queries that run but must come back with nothing from another workspace or organization. */
const SCOPED: [string, Record<string, unknown>?][] = [
  ["MATCH (n) RETURN n"],
  ["MATCH (n:GraphMeta) RETURN n"],
  ["OPTIONAL MATCH (n:GraphMeta) RETURN n"],
  ["MATCH (n) WHERE n.name STARTS WITH 'SECRET' RETURN n.name"],
  ["MATCH (n) WHERE n.name STARTS WITH '\\u0053ECRET' RETURN n"],
  ["MATCH p = (a)-[*]-(b) WHERE b.name STARTS WITH 'SECRET' RETURN p LIMIT 10"],
  ["MATCH (a)-[r*0..]-(b) RETURN collect(DISTINCT b.name) AS names"],
  ["MATCH p = shortestPath((a:Element {name: 'ALPHA-VISIBLE'})-[*]-(b)) WHERE b.name STARTS WITH 'SECRET' RETURN p"],
  ["MATCH (a:Element), (b:Element {name: 'SECRET-B'}) MATCH p = allShortestPaths((a)-[*..6]-(b)) RETURN p"],
  ["MATCH (a) WHERE EXISTS { MATCH (b) WHERE b.name STARTS WITH 'SECRET' } RETURN a.name"],
  ["RETURN COUNT { MATCH (b) WHERE b.name STARTS WITH 'SECRET' } AS c"],
  ["RETURN COLLECT { MATCH (b) RETURN b.name } AS names"],
  ["MATCH (a:Element) RETURN a.name, [(a)-[*1..3]-(c) WHERE c.name STARTS WITH 'SECRET' | c.name] AS x"],
  ["MATCH (a)-->(b) RETURN [(b)<--(c) | c.name] AS names"],
  ["MATCH (n:!Element) RETURN n.name, labels(n)"],
  ["MATCH (n:Element|GraphMeta) RETURN n"],
  ["MATCH (n:%) RETURN n.name"],
  ["MATCH (n:(Element|View)&!ApplicationComponent) RETURN n.name"],
  ["MATCH (n) WHERE n:GraphMeta OR n.name STARTS WITH 'SECRET' RETURN n"],
  ["MATCH (n) WHERE n.id = $id RETURN n.name, n.id"],
  ["MATCH (n {name: $name}) RETURN n", { name: "SECRET-B" }],
  ["MATCH (n) WHERE elementId(n) = $eid RETURN n"],
  ["MATCH (n) WHERE id(n) = $nid RETURN n"],
  ["MATCH (n) // look elsewhere\n WHERE n.name STARTS WITH 'SECRET' /* or here */ RETURN n"],
  ["MATCH (n:`Element`)-[r]->(`m`) RETURN `m`.name, r"],
  ["MATCH (`MATCH`) RETURN `MATCH`.name"],
  ["MATCH (n:`W_B_SCOPE`) RETURN n"],
  ["UNWIND range(0, 2000) AS i MATCH (n) WHERE id(n) = i RETURN n.name"],
  ["MATCH (n) RETURN n.name AS name UNION MATCH (n:GraphMeta) RETURN n.workspace_id AS name"],
  ["MATCH (a) WITH a MATCH (b) WHERE b.name STARTS WITH 'SECRET' RETURN b"],
  ["MATCH (a)-[r]->(b) WHERE startNode(r).name STARTS WITH 'SECRET' RETURN r"],
  ["MATCH ()-[r]->() RETURN count(r) AS relationships"],
  ["MATCH (n) WHERE all(l IN labels(n) WHERE l <> 'Element') RETURN n"],
  ["MATCH (a:Element {id: $id}) RETURN a {.*, neighbours: [(a)--(o) | o {.name}]} AS a"],
  ["MATCH (a:Element) WITH a ORDER BY a.name SKIP 1 LIMIT 5 RETURN a.name"],
];

describe("adversarial queries cannot read another workspace or organization, nor write", () => {
  test("the suite has at least 40 queries", () => expect(REFUSED.length + SCOPED.length).toBeGreaterThanOrEqual(40));

  test.each(REFUSED)("refused: %s", async (query, reason) => {
    const res = await explore(query, { label: "GraphMeta", props: { name: "x" } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(reason);
  });

  test.each(SCOPED)("confined: %s", async (query, params) => {
    const res = await explore(
      query.replace("W_B_SCOPE", scopeLabel(b.workspaceId, "A")),
      params ?? { id: secretIds.id, eid: secretIds.elementId, nid: secretIds.nodeId },
    );
    expect([200, 422]).toContain(res.status);
    expect(res.text).not.toMatch(/SECRET-|workspace_id/);
    if (res.status !== 200) return;
    expect(res.body.nodes.length).toBeLessThanOrEqual(totals.nodes);
    for (const row of res.body.rows)
      for (const cell of row) if (typeof cell === "number") expect(cell).toBeLessThanOrEqual(totals.nodes * 10);
  });

  test("counts are this workspace's own, and nothing was written anywhere", async () => {
    const res = await explore("MATCH (n:Element) RETURN count(n) AS c");
    expect(res.body.rows[0][0]).toBe(totals.elements);
    expect(await nodeCount(scopeLabel(a.workspaceId, "A"))).toBe(totals.nodes);
    expect(await nodeCount(scopeLabel(b.workspaceId, "A"))).toBe(totals.nodes);
    const written = await n4j.driver.executeQuery(
      "MATCH (n) WHERE n.name = 'pwned' OR n:X OR n.p = 1 OR (n:Element AND n.id = 'x') RETURN count(n) AS c",
    );
    expect(Number(written.records[0]!.get("c"))).toBe(0);
  });

  test("viewers may explore; a caller without a workspace gets 404", async () => {
    expect((await a.viewer.post("/api/explore", { query: "RETURN 1 AS one" })).status).toBe(200);
    const none = await h.call(
      { userId: "u", role: "viewer", organizationId: a.orgId, workspaceId: null },
      "POST",
      "/api/explore",
      { query: "RETURN 1" },
    );
    expect(none.status).toBe(404);
  });
});
