import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/** Counts of what a rebuild wrote to the graph. */
export type GraphCounts = {
  elements: number;
  relationships: number;
  views: number;
  reified: number;
  contains: number;
  /**
   * Edges the rebuild could not draw because an end was missing from the model (the database's constraints prevent
   * this; data from before them, or written around them, can still hold it): reported, never dropped silently.
   */
  inconsistent?: { count: number; examples: string[] };
};

/**
 * One rebuild of a workspace's graph read model. state: queued | running | succeeded | failed.
 * heartbeat_at is refreshed while a worker runs the job: a running job whose heartbeat is stale was abandoned
 * (its worker died) and may be taken over when the queue redelivers it.
 */
export const graphJobs = pgTable(
  "graph_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    requestedBy: text("requested_by"),
    state: text("state").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    generation: integer("generation"),
    counts: jsonb("counts").$type<GraphCounts>(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("graph_jobs_ws_created_idx").on(t.workspaceId, t.createdAt)],
);
