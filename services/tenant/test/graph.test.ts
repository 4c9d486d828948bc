import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { type TenantHarness, tenantHarness } from "./support/harness.ts";
import { type GraphTenant, graphTenant } from "./support/tenant-graph.ts";

describe("without a graph database", () => {
  let h: TenantHarness;
  beforeAll(async () => {
    h = await tenantHarness();
  });
  afterAll(() => h?.close());

  test("rebuild, explore and panels answer 503 saying how to enable graph features; dashboards still list", async () => {
    const org = await h.organization();
    for (const res of [
      await org.editor.post("/api/export/neo4j"),
      await org.viewer.post("/api/explore", { query: "MATCH (n) RETURN n" }),
      await org.viewer.get("/api/dashboards/model-statistics/panels/elements"),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/NEO4J_URL.*Java 17\+ and Maven/);
    }
    const list = await org.viewer.get("/api/dashboards");
    expect(list.status).toBe(200);
    expect(list.body.length).toBe(3);
  });
});

describe("POST /api/export/neo4j", () => {
  let n4j: TestNeo4j;
  let h: GraphTenant;
  beforeAll(async () => {
    n4j = await startTestNeo4j();
    h = await graphTenant(n4j);
  }, 400_000);
  afterAll(async () => {
    await h?.close();
    await n4j?.stop();
  });

  test("owners and editors rebuild (200 with counts); viewers are refused; the job is readable, not across organizations", async () => {
    const org = await h.organization();
    await org.owner.post("/api/elements", { name: "CRM", type: "ApplicationComponent" });
    expect((await org.viewer.post("/api/export/neo4j")).status).toBe(403);
    const res = await org.editor.post("/api/export/neo4j");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "succeeded", counts: { elements: 1, relationships: 0 }, generation: 1 });
    const job = await org.viewer.get(res.body.status_url);
    expect(job.body).toMatchObject({ id: res.body.id, state: "succeeded" });
    const other = await h.organization();
    expect((await other.owner.get(res.body.status_url)).status).toBe(404);
    expect((await org.viewer.get("/api/export/neo4j/jobs/not-a-job")).status).toBe(404);
    const again = await org.owner.post("/api/export/neo4j");
    expect(again.body.generation).toBe(2);
  });

  test("a rebuild that outlasts the wait answers 202 with the job and a Location", async () => {
    const slow = await graphTenant(n4j, { graph: { rebuildWaitMs: 0 } });
    try {
      const org = await slow.organization();
      const res = await org.editor.post("/api/export/neo4j");
      expect(res.status).toBe(202);
      expect(res.headers.get("location")).toBe(res.body.status_url);
      let job = res.body;
      for (let i = 0; i < 100 && job.state !== "succeeded"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        job = (await org.viewer.get(res.body.status_url)).body;
      }
      expect(job.state).toBe("succeeded");
    } finally {
      await slow.close();
    }
  });
});
