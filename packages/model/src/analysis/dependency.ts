import type { RelationshipType } from "@ams/shared";

/**
 * Which way a change travels along a relationship, for impact analysis: "forward" when the target depends on the
 * source, "reverse" when the source depends on the target, "both" when the relationship says nothing of direction.
 *
 * - Serving, Realization, Assignment: the served, realized or performed element needs the one that serves, realizes
 *   or performs it (a node that fails takes down the technology service it realizes and the application it serves).
 * - Triggering, Flow, Influence: what comes after needs what comes before.
 * - Composition, Aggregation: a whole needs its parts (the relationship points from whole to part).
 * - Access: the behaviour or active structure that reads or writes an object needs the object (the relationship
 *   points from the accessor to the object, whatever the access type).
 * - Specialization: the specialized element inherits from the general one (points from specific to general).
 * - Association: says two things are related, not that one needs the other: followed only when asked for by type
 *   (then an undirected one both ways, a directed one from source to target).
 */
export type Flow = "forward" | "reverse" | "both";

const FLOW: Record<RelationshipType, Flow> = {
  Serving: "forward",
  Realization: "forward",
  Assignment: "forward",
  Triggering: "forward",
  Flow: "forward",
  Influence: "forward",
  Composition: "reverse",
  Aggregation: "reverse",
  Access: "reverse",
  Specialization: "reverse",
  Association: "both",
};

export function flowOf(type: string, isDirected: boolean | null): Flow {
  if (type === "Association") return isDirected ? "forward" : "both";
  return FLOW[type as RelationshipType] ?? "both";
}

export type Direction = "dependents" | "dependencies" | "both";

/**
 * Whether following the relationship from its source to its target (or the other way) answers the question asked:
 * dependents go where the change flows, dependencies against it.
 */
export function follows(flow: Flow, direction: Direction, fromSource: boolean): boolean {
  if (direction === "both" || flow === "both") return true;
  const withFlow = (flow === "forward") === fromSource;
  return direction === "dependents" ? withFlow : !withFlow;
}
