import type { Driver } from "neo4j-driver";

/**
 * Makes the (:GraphMeta) pointer and the (:GraphBuild) progress unique per workspace, and indexes elements by id: explore's lookup of one element
 * (`MATCH (a:Element {id: $id})`) otherwise scans every node of the workspace label, so its cost grew with the model.
 * The index spans workspaces (ids repeat across them); the workspace label is checked on the few nodes it yields.
 * Idempotent.
 */
export async function ensureGraphSchema(driver: Driver, database?: string): Promise<void> {
  const statements = [
    "CREATE CONSTRAINT graph_meta_workspace IF NOT EXISTS FOR (m:GraphMeta) REQUIRE m.workspace_id IS UNIQUE",
    "CREATE INDEX element_id IF NOT EXISTS FOR (n:Element) ON (n.id)",
    // The sync finds the nodes a change names by id: (:Relationship) nodes (ends of relationships) and views.
    "CREATE INDEX relationship_node_id IF NOT EXISTS FOR (n:Relationship) ON (n.id)",
    "CREATE INDEX view_id IF NOT EXISTS FOR (n:View) ON (n.id)",
    "CREATE CONSTRAINT graph_build_workspace IF NOT EXISTS FOR (b:GraphBuild) REQUIRE b.workspace_id IS UNIQUE",
  ];
  for (const statement of statements) {
    try {
      await driver.executeQuery(statement, {}, { database });
    } catch (err) {
      // IF NOT EXISTS is checked before the schema lock is taken: when two processes (replicas starting together)
      // create the same rule at once, the slower one is told it exists already. That is the outcome it wanted.
      if (!isSchemaRuleAlreadyThere(err)) throw err;
    }
  }
}

const SCHEMA_RULE_ALREADY_THERE = new Set([
  "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
  "Neo.ClientError.Schema.IndexAlreadyExists",
  "Neo.ClientError.Schema.ConstraintAlreadyExists",
]);

function isSchemaRuleAlreadyThere(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && SCHEMA_RULE_ALREADY_THERE.has(code);
}
