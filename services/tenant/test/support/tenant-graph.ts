import { createTestDatabase } from "@ams/db/testing";
import { createGraphWorker, createMemoryQueue } from "@ams/graph";
import type { GraphDeps } from "@ams/model";
import type { OrgRole } from "@ams/shared";
import type { TestNeo4j } from "../../../../packages/graph/test/support/neo4j.ts";
import { tenantHarness } from "./harness.ts";

/**
 * The tenant harness with graph features on: the given Neo4j, an in-process job queue and a worker on the same
 * real PostgreSQL database.
 */
export async function graphTenant(n4j: TestNeo4j, opts: { graph?: Partial<GraphDeps>; withGraph?: boolean } = {}) {
  const database = await createTestDatabase("ams_tenant_graph");
  const queue = createMemoryQueue();
  const worker = createGraphWorker({ database, neo4j: n4j.driver, queue, graceMs: 700 });
  await worker.start();
  const graph: GraphDeps = { driver: n4j.driver, queue, rebuildWaitMs: 60_000, ...opts.graph };
  const base = await tenantHarness({ database, graph: opts.withGraph === false ? undefined : graph });

  /** An organization with a workspace (optionally importing `xml`) and a client per role. */
  async function organization(xml?: string) {
    const org = await base.organization();
    const as = (role: OrgRole, ws = org.workspaceId) =>
      org.client({ userId: `${role}-${org.orgId}`, role, organizationId: org.orgId, workspaceId: ws });
    if (xml) {
      const imported = await org.owner.post("/api/import", xml, { "content-type": "application/xml" });
      if (imported.status !== 200) throw new Error(`import failed: ${imported.text}`);
    }
    return { ...org, as };
  }

  return {
    ...base,
    graph,
    organization,
    async close() {
      await worker.stop();
      await queue.close();
      await base.close();
    },
  };
}
export type GraphTenant = Awaited<ReturnType<typeof graphTenant>>;
