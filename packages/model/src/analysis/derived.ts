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

type Touching = {
  id: string;
  type: string;
  source: string;
  target: string;
  sourceType: string;
  sourceName: string;
  targetType: string;
  targetName: string;
};
type Chain = { steps: PathStep[]; typed: ChainStep[]; end: string; visited: Set<string> };
type Brief = { id: string; type: string; name: string };

/**
 * The relationships ArchiMate 3.1 derives between the element and others through chains of relationships walked in
 * either direction (§5.7, Appendix B): from the element (outgoing) or to it (incoming), each with its chain, the
 * rules applied and whether it is certain or only potential. Read from the model tables in the request (one
 * statement per chain length), never stored: adding one is an ordinary POST /api/relationships.
 */
export async function deriveRelationships({ ctx, input }: Verb<DerivedQuery & { id: string }>): Promise<DerivedResult> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const { id, ...rest } = input;
  const query = DerivedQuery.parse(rest);
  const start = await getElementRow(ctx.database, ws, id);
  if (query.target) await getElementRow(ctx.database, ws, query.target);
  const elements = new Map<string, Brief>([[start.id, { id: start.id, type: start.type, name: start.name }]]);
  let chains: Chain[] = [{ steps: [], typed: [], end: start.id, visited: new Set([start.id]) }];
  const found = new Map<string, DerivedRelationship>();
  let truncated = false;
  let followed = 0;
  for (let length = 1; length <= query.max_length && chains.length > 0; length++) {
    const ends = [...new Set(chains.map((c) => c.end))];
    const rows = await ctx.database.rows<Touching>(
      sql`select r.id, r.type, r.source_id as source, r.target_id as target,
            s.type as "sourceType", s.name as "sourceName", t.type as "targetType", t.name as "targetName"
          from relationships r
            join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
            join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
          where r.workspace_id = ${ws} and (r.source_id = ${anyOf(ends)} or r.target_id = ${anyOf(ends)})
          order by r.ord`,
    );
    const touching = new Map<string, Touching[]>();
    const add = (at: string, row: Touching) => {
      const list = touching.get(at) ?? [];
      list.push(row);
      touching.set(at, list);
    };
    for (const row of rows) {
      elements.set(row.source, { id: row.source, type: row.sourceType, name: row.sourceName });
      elements.set(row.target, { id: row.target, type: row.targetType, name: row.targetName });
      add(row.source, row);
      if (row.target !== row.source) add(row.target, row);
    }
    const next: Chain[] = [];
    for (const chain of chains) {
      for (const row of touching.get(chain.end) ?? []) {
        const reverse = row.source !== chain.end;
        const other = reverse ? row.source : row.target;
        if (chain.visited.has(other)) continue;
        if (++followed > MAX_CHAINS) {
          truncated = true;
          break;
        }
        const [from, to] = reverse ? [row.targetType, row.sourceType] : [row.sourceType, row.targetType];
        const typed = [...chain.typed, { type: row.type, from, to, reverse }];
        if (!chainAlive(typed)) continue;
        const steps = [
          ...chain.steps,
          { relationship_id: row.id, type: row.type, source: row.source, target: row.target },
        ];
        const extended = { steps, typed, end: other, visited: new Set([...chain.visited, other]) };
        next.push(extended);
        if (!query.target || other === query.target) record(found, start, elements, extended);
      }
      if (truncated) break;
    }
    chains = next;
  }
  const relationships = [...found.values()];
  await markInModel(ctx, ws, relationships);
  relationships.sort(
    (a, b) =>
      Number(a.certainty === "potential") - Number(b.certainty === "potential") ||
      a.other.name.localeCompare(b.other.name) ||
      a.type.localeCompare(b.type) ||
      a.direction.localeCompare(b.direction),
  );
  return {
    element: { id: start.id, type: start.type, name: start.name },
    max_length: query.max_length,
    count: relationships.length,
    truncated,
    relationships,
  };
}

const withLayer = (e: Brief) => ({ id: e.id, type: e.type, name: e.name, layer: layerOfType(e.type) });

function record(found: Map<string, DerivedRelationship>, start: Brief, elements: Map<string, Brief>, chain: Chain) {
  const derived = deriveChain(chain.typed);
  if (!derived) return;
  const other = elements.get(chain.end);
  if (!other) return;
  const direction = derived.reverse ? "incoming" : "outgoing";
  const key = `${other.id}\u0000${derived.type}\u0000${direction}`;
  const seen = found.get(key);
  if (seen) {
    seen.chain_count++;
    // A certain chain beats a potential one; among equals the first (shortest, then model order) stays.
    if (!(seen.certainty === "potential" && derived.certainty === "certain")) return;
  }
  const [source, target] = derived.reverse ? [other, start] : [start, other];
  found.set(key, {
    type: derived.type,
    direction,
    source: source.id,
    target: withLayer(target),
    other: withLayer(other),
    certainty: derived.certainty,
    rules: derived.rules,
    chain: chain.steps,
    chain_count: seen ? seen.chain_count : 1,
    in_model: false,
    derived: true,
  });
}

/** Marks those the model already holds as a relationship of the same type between the same two elements. */
async function markInModel(ctx: Verb["ctx"], ws: string, relationships: DerivedRelationship[]) {
  if (relationships.length === 0) return;
  const ids = [...new Set(relationships.flatMap((r) => [r.source, r.target.id]))];
  const rows = await ctx.database.rows<{ type: string; source: string; target: string }>(
    sql`select type, source_id as source, target_id as target from relationships
        where workspace_id = ${ws} and source_id in ${idList(ids)} and target_id in ${idList(ids)}`,
  );
  const present = new Set(rows.map((r) => `${r.source}\u0000${r.target}\u0000${r.type}`));
  for (const r of relationships) r.in_model = present.has(`${r.source}\u0000${r.target.id}\u0000${r.type}`);
}
