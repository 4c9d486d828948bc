import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import { anyOf, idList } from "../sql.ts";
import { type ChainStep, chainAlive, deriveChain } from "./derivation-rules.ts";
import { DerivedQuery, type DerivedRelationship, type DerivedResult } from "./derived-schemas.ts";
import { layerOfType } from "./impact.ts";
import type { PathStep } from "./impact-schemas.ts";

/** Chains followed at most: a hub's neighbourhood stays an answer, not a combinatorial explosion. */
const MAX_CHAINS = 20_000;

type Out = {
  ord: number;
  id: string;
  type: string;
  source: string;
  target: string;
  targetType: string;
  targetName: string;
};
type Chain = { steps: PathStep[]; typed: ChainStep[]; end: string; visited: Set<string> };

/**
 * The relationships ArchiMate 3.1 derives from the element to others through chains of its relationships (§5.7,
 * Appendix B), each with its chain and whether it is certain or only potential. Read from the model tables in the
 * request (one statement per chain length), never stored: adding one is an ordinary POST /api/relationships.
 */
export async function deriveRelationships({ ctx, input }: Verb<DerivedQuery & { id: string }>): Promise<DerivedResult> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const { id, ...rest } = input;
  const query = DerivedQuery.parse(rest);
  const start = await getElementRow(ctx.database, ws, id);
  if (query.target) await getElementRow(ctx.database, ws, query.target);
  const typeOf = new Map<string, { type: string; name: string }>([[start.id, { type: start.type, name: start.name }]]);
  let chains: Chain[] = [{ steps: [], typed: [], end: start.id, visited: new Set([start.id]) }];
  const found = new Map<string, { rel: DerivedRelationship; best: Chain }>();
  let truncated = false;
  let followed = 0;
  for (let length = 1; length <= query.max_length && chains.length > 0; length++) {
    const ends = [...new Set(chains.map((c) => c.end))];
    const outs = await ctx.database.rows<Out>(
      sql`select r.ord, r.id, r.type, r.source_id as source, r.target_id as target, e.type as "targetType",
            e.name as "targetName"
          from relationships r join elements e on e.workspace_id = r.workspace_id and e.id = r.target_id
          where r.workspace_id = ${ws} and r.source_id = ${anyOf(ends)} order by r.ord`,
    );
    const bySource = new Map<string, Out[]>();
    for (const o of outs) {
      typeOf.set(o.target, { type: o.targetType, name: o.targetName });
      const list = bySource.get(o.source) ?? [];
      list.push(o);
      bySource.set(o.source, list);
    }
    const next: Chain[] = [];
    for (const chain of chains) {
      for (const o of bySource.get(chain.end) ?? []) {
        if (chain.visited.has(o.target)) continue;
        if (++followed > MAX_CHAINS) {
          truncated = true;
          break;
        }
        const sourceType = typeOf.get(o.source)?.type ?? "";
        const typed = [...chain.typed, { type: o.type, sourceType, targetType: o.targetType }];
        if (!chainAlive(typed)) continue;
        const steps = [...chain.steps, { relationship_id: o.id, type: o.type, source: o.source, target: o.target }];
        const extended = { steps, typed, end: o.target, visited: new Set([...chain.visited, o.target]) };
        next.push(extended);
        if (length >= 2 && (!query.target || o.target === query.target)) record(found, start.id, extended, o);
      }
      if (truncated) break;
    }
    chains = next;
  }
  const relationships = [...found.values()].map((f) => f.rel);
  await markInModel(ctx, ws, start.id, relationships);
  relationships.sort(
    (a, b) =>
      Number(a.certainty === "potential") - Number(b.certainty === "potential") ||
      a.target.name.localeCompare(b.target.name) ||
      a.type.localeCompare(b.type),
  );
  return {
    element: { id: start.id, type: start.type, name: start.name },
    max_length: query.max_length,
    count: relationships.length,
    truncated,
    relationships,
  };
}

function record(found: Map<string, { rel: DerivedRelationship; best: Chain }>, source: string, chain: Chain, o: Out) {
  const derived = deriveChain(chain.typed);
  if (!derived) return;
  const key = `${o.target}\u0000${derived.type}`;
  const seen = found.get(key);
  if (seen) {
    seen.rel.chain_count++;
    // A certain chain beats a potential one; among equals the first (shortest, then model order) stays.
    if (!(seen.rel.certainty === "potential" && derived.certainty === "certain")) return;
  }
  found.set(key, {
    best: chain,
    rel: {
      type: derived.type,
      source,
      target: { id: o.target, type: o.targetType, name: o.targetName, layer: layerOfType(o.targetType) },
      certainty: derived.certainty,
      chain: chain.steps,
      chain_count: seen ? seen.rel.chain_count : 1,
      in_model: false,
      derived: true,
    },
  });
}

/** Marks those the model already holds as a relationship of the same type between the same two elements. */
async function markInModel(ctx: Verb["ctx"], ws: string, source: string, relationships: DerivedRelationship[]) {
  if (relationships.length === 0) return;
  const rows = await ctx.database.rows<{ type: string; target: string }>(
    sql`select type, target_id as target from relationships
        where workspace_id = ${ws} and source_id = ${source}
          and target_id in ${idList([...new Set(relationships.map((r) => r.target.id))])}`,
  );
  const present = new Set(rows.map((r) => `${r.target}\u0000${r.type}`));
  for (const r of relationships) r.in_model = present.has(`${r.target.id}\u0000${r.type}`);
}
