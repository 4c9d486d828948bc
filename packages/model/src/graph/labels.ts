import { AppError } from "@ams/shared";
import type { ManagedTransaction, Session } from "neo4j-driver";

/**
 * Every workspace owns two graph slots, A and B, each a label of its own (W_<workspace hex>_A / _B). A rebuild writes
 * the slot not in use, then one transaction points the workspace's (:GraphMeta) node at it. Readers resolve the
 * slot first and only ever see a complete generation; the old slot is emptied after a grace period.
 */
export type Slot = "A" | "B";

export function scopeLabel(workspaceId: string, slot: Slot): string {
  const hex = workspaceId.replaceAll("-", "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new AppError("INTERNAL", `not a workspace id: ${workspaceId}`);
  return `W_${hex}_${slot}`;
}

export const otherSlot = (slot: Slot): Slot => (slot === "A" ? "B" : "A");

/** ArchiMate relationship type to Neo4j relationship type: Serving -> SERVING. */
export const relationshipTypeName = (type: string) => type.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

/**
 * `revision`: the model revision (change group) the graph shows; null for a graph built before the graph kept itself
 * current (the sync rebuilds it once).
 */
export type GraphMeta = {
  slot: Slot;
  generation: number;
  switchedAt: number;
  previousSlot: Slot | null;
  revision: number | null;
};

type Runner = Pick<ManagedTransaction, "run"> | Pick<Session, "run">;

/** The workspace's current graph, or null before its first rebuild. */
export async function readGraphMeta(runner: Runner, workspaceId: string): Promise<GraphMeta | null> {
  const result = await runner.run(
    "MATCH (m:GraphMeta {workspace_id: $ws}) RETURN m.slot AS slot, m.generation AS generation, m.switched_at AS switchedAt, m.previous_slot AS previousSlot, m.revision AS revision",
    { ws: workspaceId },
  );
  const record = result.records[0];
  if (!record) return null;
  return {
    slot: record.get("slot") as Slot,
    generation: Number(record.get("generation")),
    switchedAt: Number(record.get("switchedAt") ?? 0),
    previousSlot: (record.get("previousSlot") as Slot | null) ?? null,
    revision: record.get("revision") === null ? null : Number(record.get("revision")),
  };
}

/**
 * How far the first build of a workspace's graph has come, in percent (0 before its first batch): the
 * (:GraphBuild) node the writer updates after each batch. Null when no build wrote for a minute (none running).
 */
export async function readBuildProgress(runner: Runner, workspaceId: string): Promise<number | null> {
  const result = await runner.run(
    "MATCH (b:GraphBuild {workspace_id: $ws}) WHERE b.at > timestamp() - 60000 RETURN b.done AS done, b.total AS total",
    { ws: workspaceId },
  );
  const record = result.records[0];
  if (!record) return null;
  const total = Number(record.get("total"));
  return total > 0 ? Math.min(99, Math.floor((Number(record.get("done")) * 100) / total)) : 0;
}
