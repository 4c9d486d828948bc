import neo4j, { type Record as Neo4jRecord, type Node, type Path, type Relationship } from "neo4j-driver";
import type { z } from "zod";
import type { QueryResultSchema } from "./schemas.ts";

export type GraphNode = { id: string; labels: string[]; properties: Record<string, unknown> };
export type GraphRelationship = {
  id: string;
  type: string;
  start: string;
  end: string;
  properties: Record<string, unknown>;
};

/** A query's answer: the inferred type of QueryResultSchema (graph/schemas.ts), which REST and MCP document. */
export type QueryResult = z.infer<typeof QueryResultSchema>;

/** Workspace slot labels are internal: they never leave the service. */
const INTERNAL_LABEL = /^W_[0-9a-f]{32}_[AB]$/;

/** Converts driver records to JSON: integers to numbers (strings when unsafe), temporal and spatial values to text. */
export function toResult(keys: string[], records: Neo4jRecord[], truncated: boolean, rowCap: number): QueryResult {
  const nodes = new Map<string, GraphNode>();
  const rels = new Map<string, GraphRelationship>();
  const node = (n: Node): GraphNode => {
    const existing = nodes.get(n.elementId);
    if (existing) return existing;
    const value = {
      id: n.elementId,
      labels: n.labels.filter((l) => !INTERNAL_LABEL.test(l)),
      properties: plain(n.properties) as Record<string, unknown>,
    };
    nodes.set(n.elementId, value);
    return value;
  };
  const rel = (r: Relationship): GraphRelationship => {
    const existing = rels.get(r.elementId);
    if (existing) return existing;
    const value = {
      id: r.elementId,
      type: r.type,
      start: r.startNodeElementId,
      end: r.endNodeElementId,
      properties: plain(r.properties) as Record<string, unknown>,
    };
    rels.set(r.elementId, value);
    return value;
  };
  function plain(v: unknown): unknown {
    if (v === null || v === undefined) return null;
    if (neo4j.isInt(v)) return v.inSafeRange() ? v.toNumber() : v.toString();
    if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    if (typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(plain);
    if (v instanceof neo4j.types.Node) return node(v);
    if (v instanceof neo4j.types.Relationship) return rel(v);
    if (v instanceof neo4j.types.Path) {
      const p = v as Path;
      return {
        nodes: [node(p.start), ...p.segments.map((s) => node(s.end))],
        relationships: p.segments.map((s) => rel(s.relationship)),
      };
    }
    if (
      neo4j.isDate(v) ||
      neo4j.isDateTime(v) ||
      neo4j.isLocalDateTime(v) ||
      neo4j.isTime(v) ||
      neo4j.isLocalTime(v) ||
      neo4j.isDuration(v) ||
      neo4j.isPoint(v)
    ) {
      return String(v);
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = plain(x);
    return out;
  }
  const rows = records.map((r) => keys.map((k) => plain(r.get(k))));
  return { columns: keys, rows, nodes: [...nodes.values()], relationships: [...rels.values()], truncated, rowCap };
}
