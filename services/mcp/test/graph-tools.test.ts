import { sql } from "@ams/db";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/** explore, rebuild_graph, list_dashboards and run_dashboard against a real Neo4j, through the gateway. */
let n4j: TestNeo4j;
let stack: Stack;
let owner: Client;
let viewer: Client;
let ownerToken: string;

beforeAll(async () => {
  n4j = await startTestNeo4j();
  stack = await startStack({ neo4j: n4j.driver });
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Graph" });
  ownerToken = (await stack.apiToken(archi)).token;
  owner = await stack.mcpClient(ownerToken);
  viewer = await stack.mcpClient((await stack.apiToken(await stack.signIn("user"))).token);
  await owner.listTools();
}, 180_000);
afterAll(async () => {
  await owner?.close();
  await viewer?.close();
  await stack?.close();
  await n4j?.stop();
});

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const ok = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const res = await call(client, name, args);
  if (res.isError) throw new Error(`${name}: ${textOf(res)}`);
  return res.structuredContent as any;
};

test("explore before the graph was built says it is being built; after a rebuild, Cypher reads this workspace only", async () => {
  const crm = await ok(owner, "create_element", { name: "CRM", type: "ApplicationComponent" });
  const portal = await ok(owner, "create_element", { name: "Portal", type: "ApplicationComponent" });
  await ok(owner, "create_relationship", { type: "Serving", source: crm.id, target: portal.id });
  const early = await call(owner, "explore", { query: "MATCH (n) RETURN count(n)" });
  expect(early.isError).toBe(true);
  expect(textOf(early)).toMatch(/^Building the graph of this workspace \(\d+%\)$/);

  const job = await ok(owner, "rebuild_graph");
  expect(job.state).toBe("succeeded");
  const result = await ok(owner, "explore", {
    query: "MATCH (a:ApplicationComponent)-[r:SERVING]->(b) RETURN a.name AS source, type(r) AS type, b.name AS target",
  });
  expect(result.columns).toEqual(["source", "type", "target"]);
  expect(result.rows).toEqual([["CRM", "SERVING", "Portal"]]);
  const refused = await call(owner, "explore", { query: "MATCH (n) DETACH DELETE n" });
  expect(refused.isError).toBe(true);
  expect(refused._meta?.["ams/problem"]).toMatchObject({ status: 422 });
  // A viewer reads the graph but does not see (nor may call) the rebuild.
  expect((await ok(viewer, "explore", { query: "MATCH (n:ApplicationComponent) RETURN count(n) AS n" })).rows).toEqual([
    [2],
  ]);
  const tools = (await viewer.listTools()).tools.map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(["explore", "list_dashboards", "run_dashboard"]));
  expect(tools).not.toContain("rebuild_graph");
  expect(textOf(await call(viewer, "rebuild_graph"))).toBe("Your role (viewer) does not allow graph:rebuild");
});

test("list_dashboards and run_dashboard run panels with checked parameters", async () => {
  const created = await stack.rest(ownerToken, "POST", "/api/dashboards", {
    title: "Components",
    parameters: [{ name: "prefix", label: "Name starts with", type: "string", default: "" }],
    panels: [
      {
        panelInstanceId: "components",
        title: "Components",
        visualization: "core/table",
        query: "MATCH (c:ApplicationComponent) WHERE c.name STARTS WITH $prefix RETURN c.name AS name ORDER BY name",
        layout: { x: 0, y: 0, w: 6, h: 4 },
      },
    ],
  });
  expect(created.status).toBe(201);
  const id = created.body.dashboardId as string;
  const { dashboards } = await ok(viewer, "list_dashboards");
  const listed = dashboards.find((d: { dashboardId: string }) => d.dashboardId === id);
  expect(listed).toMatchObject({ title: "Components", panelCount: 1, revision: 1, isProvisioned: false });
  expect(listed).not.toHaveProperty("panels");
  const detailed = await ok(viewer, "list_dashboards", { fields: ["title", "parameters", "panels"] });
  expect(detailed.dashboards.find((d: { dashboardId: string }) => d.dashboardId === id)).toEqual({
    dashboardId: id,
    title: "Components",
    parameters: [expect.objectContaining({ name: "prefix", type: "string" })],
    panels: [expect.objectContaining({ panelInstanceId: "components", query: expect.stringContaining("$prefix") })],
  });
  const all = await ok(viewer, "run_dashboard", { dashboard_id: id });
  expect(all.panels[0].result.rows).toEqual([["CRM"], ["Portal"]]);
  const some = await ok(viewer, "run_dashboard", {
    dashboard_id: id,
    parameters: { prefix: "P" },
    panel_id: "components",
  });
  expect(some.panels[0].result.rows).toEqual([["Portal"]]);
  const unknown = await call(viewer, "run_dashboard", { dashboard_id: id, parameters: { colour: "red" } });
  expect(textOf(unknown)).toContain("colour: not a parameter of dashboard");
});

test("a rebuild longer than the wait says how to follow it over MCP; rebuild_graph {job_id} waits for that job", async () => {
  const jobs = async () =>
    (await stack.database.rows<{ n: number }>(sql`select count(*)::int as n from graph_jobs`))[0]!.n;
  const deps = stack.graph!;
  deps.rebuildWaitMs = 0;
  let first: any;
  try {
    const res = await call(owner, "rebuild_graph");
    expect(res.isError, textOf(res)).toBeFalsy();
    first = res.structuredContent;
    expect(textOf(res)).not.toContain("/api/");
  } finally {
    deps.rebuildWaitMs = 60_000;
  }
  expect(["queued", "running"]).toContain(first.state);
  expect(first).not.toHaveProperty("status_url");
  expect(first.next).toBe(
    `rebuild_graph {"job_id": "${first.id}"} waits for this job again; it starts no other rebuild`,
  );
  const count = await jobs();
  const followed = await ok(owner, "rebuild_graph", { job_id: first.id });
  expect(followed).toMatchObject({ id: first.id, state: "succeeded", next: null });
  expect(followed.counts.elements).toBeGreaterThan(0);
  expect(await jobs()).toBe(count);

  const unknown = await call(owner, "rebuild_graph", { job_id: "00000000-0000-0000-0000-000000000000" });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toBe("Graph job '00000000-0000-0000-0000-000000000000' not found");
  // REST keeps its status route.
  const rest = await stack.rest(ownerToken, "POST", "/api/export/neo4j");
  expect(rest.status).toBe(200);
  expect(rest.body.status_url).toBe(`/api/export/neo4j/jobs/${rest.body.id}`);
}, 120_000);

test("an element parameter of the wrong type is refused with the right article", async () => {
  const server = await ok(owner, "create_element", { name: "Server", type: "Node" });
  const crm = (await ok(owner, "list_elements", { name: "CRM" })).elements[0];
  const dashboard = async (elementType: string) => {
    const created = await stack.rest(ownerToken, "POST", "/api/dashboards", {
      title: `One ${elementType}`,
      parameters: [{ name: "subject", label: "Subject", type: "element", elementType, required: true }],
      panels: [
        {
          panelInstanceId: "one",
          title: "One",
          visualization: "core/table",
          query: "MATCH (c) WHERE c.id = $subject RETURN c.name AS name",
          layout: { x: 0, y: 0, w: 6, h: 4 },
        },
      ],
    });
    expect(created.status, created.text).toBe(201);
    return created.body.dashboardId as string;
  };
  const wrongNode = await call(viewer, "run_dashboard", {
    dashboard_id: await dashboard("ApplicationComponent"),
    parameters: { subject: server.id },
  });
  expect(textOf(wrongNode)).toBe(`subject: element '${server.id}' is a Node, not an ApplicationComponent`);
  const wrongComponent = await call(viewer, "run_dashboard", {
    dashboard_id: await dashboard("Node"),
    parameters: { subject: crm.id },
  });
  expect(textOf(wrongComponent)).toBe(`subject: element '${crm.id}' is an ApplicationComponent, not a Node`);
});
