import type { Database } from "@ams/db";
import {
  type Concept,
  findViewpoint,
  invalid,
  isElementType,
  isRelationshipAllowed,
  type RelationshipType,
  viewpointAllows,
} from "@ams/shared";
import { type SQL, sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { readOrganizationRules, type StoredRule } from "./rules.ts";
import {
  BUILTIN_RULE_IDS,
  BUILTIN_RULES,
  type BuiltinRule,
  type Severity,
  type ValidateInput,
  type ValidationIssue,
  type ValidationResult,
} from "./schemas.ts";

/** One finding of a rule, before the rule's id and severity are put on it. */
type Found = Omit<ValidationIssue, "rule" | "rule_id" | "severity">;
type Column =
  | "id"
  | "type"
  | "name"
  | "st"
  | "tt"
  | "sname"
  | "tname"
  | "kind"
  | "view_id"
  | "missing"
  | "what"
  | "kinds"
  | "types"
  | "ins"
  | "outs"
  | "viewpoint"
  | "view_name"
  | "n"
  | "first_id"
  | "first_name"
  | "node_id"
  | "ptype"
  | "pname"
  | "value"
  | "element_id"
  | "total";
/** A result row: the columns each statement selects (text, or null where the statement says so). */
type Row = Record<Column, string>;
type Q = (query: SQL) => Promise<Row[]>;

const JUNCTIONS = sql`('AndJunction', 'OrJunction')`;
const quote = (s: string | null | undefined) => `'${s ?? ""}'`;
const label = (type: string, name: string | null | undefined) => (name ? `${type} '${name}'` : `${type} (unnamed)`);

/** A rule's result: its first findings in model order (at most the validation's limit), and how many in all. */
type Ran = { found: Found[]; total: number };
type Check = (q: Q, ws: string, limit: number) => Promise<Ran>;
const NONE: Ran = { found: [], total: 0 };

/**
 * LIMIT as a literal: a bound one leaves a prepared statement's generic plan guessing a tenth of the rows (see
 * pageLimit in history/read-groups.ts).
 */
const literal = (n: number) => sql.raw(String(Number.isInteger(n) && n > 0 ? n : 1));

/**
 * A rule's findings (a select whose `o1`, `o2` give model order): the first `limit` in that order and how many there
 * are. Only those rows leave the database (on the 100k model a rule can find 200,000); when there are `limit` of
 * them, a second statement counts them all: a plain count, which PostgreSQL plans with hash joins over the whole
 * model, where the first rows in order come from walking the ord index and stopping early.
 */
async function first(q: Q, findings: SQL, limit: number, map: (r: Row) => Found, counted?: SQL): Promise<Ran> {
  const rows = await q(sql`select * from (${findings}) f order by f.o1, f.o2 limit ${literal(limit)}`);
  if (rows.length < limit) return { found: rows.map(map), total: rows.length };
  const [count] = await q(counted ?? sql`select count(*) as total from (${findings}) f`);
  return { found: rows.map(map), total: Number(count?.total ?? 0) };
}

/** A rule judged in JavaScript over rows the database found: the first `limit` of them, counted in full. */
const judged = (found: Found[], limit: number): Ran => ({ found: found.slice(0, limit), total: found.length });

/** Each built-in rule: one or two set-based statements over the workspace's model tables. */
const BUILTIN_CHECKS: Record<BuiltinRule, Check> = {
  async relationship_not_allowed(q, ws, limit) {
    // The (type, source type, target type) combinations present, with their counts, judged by the 3.1 table; then
    // the first offenders. A combination with a missing end is missing_reference's.
    const bad = (await relationshipCombos(q, ws)).filter(
      (c) => c.st && c.tt && !isRelationshipAllowed(c.type as RelationshipType, c.st as Concept, c.tt as Concept),
    );
    if (!bad.length) return NONE;
    const rows = await q(sql`
      with bad as (select * from json_to_recordset(${JSON.stringify(bad)}::json) as b(type text, st text, tt text))
      select r.id, r.type, r.name, coalesce(s.type, 'Relationship') as st, coalesce(t.type, 'Relationship') as tt,
             coalesce(s.name, sr.name, '') as sname, coalesce(t.name, tr.name, '') as tname
      from relationships r
      left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
      left join relationships sr on s.id is null and sr.workspace_id = r.workspace_id and sr.id = r.source_id
      left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
      left join relationships tr on t.id is null and tr.workspace_id = r.workspace_id and tr.id = r.target_id
      join bad on bad.type = r.type and bad.st = coalesce(s.type, 'Relationship') and bad.tt = coalesce(t.type, 'Relationship')
      where r.workspace_id = ${ws} and (s.id is not null or sr.id is not null) and (t.id is not null or tr.id is not null)
      order by r.ord
      limit ${literal(limit)}`);
    return {
      total: bad.reduce((sum, c) => sum + Number(c.n), 0),
      found: rows.map((r) => ({
        object: { kind: "relationship", id: r.id, view_id: null },
        name: r.name ?? "",
        message: `ArchiMate 3.1 does not allow a ${r.type} relationship from ${label(r.st, r.sname)} to ${label(r.tt, r.tname)}`,
        fix_hint: "Change the relationship's type to one the table allows between these types, or delete it",
      })),
    };
  },

  async missing_reference(q, ws, limit) {
    // Relationships first: their ends were judged in the pass over the relationships (a combination with an end of
    // no type); only when there are such ends are they looked up one by one.
    const relationshipEnds = async () => {
      const dangling = (await relationshipCombos(q, ws)).some((c) => !c.st || !c.tt);
      if (!dangling) return NONE;
      return first(
        q,
        sql`
          select r.id, coalesce(r.name, '') as name,
                 case when s.id is null and sr.id is null then r.source_id else r.target_id end as missing,
                 0 as o1, r.ord as o2
          from relationships r
          left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
          left join relationships sr on s.id is null and sr.workspace_id = r.workspace_id and sr.id = r.source_id
          left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
          left join relationships tr on t.id is null and tr.workspace_id = r.workspace_id and tr.id = r.target_id
          where r.workspace_id = ${ws} and ((s.id is null and sr.id is null) or (t.id is null and tr.id is null))`,
        limit,
        (r) => ({
          object: { kind: "relationship", id: r.id, view_id: null },
          name: r.name ?? "",
          message: `Relationship '${r.id}' ends at '${r.missing}', which is no element or relationship of the model`,
          fix_hint: "Delete the relationship or reconnect it to an existing element",
        }),
      );
    };
    // Then the views, in view order: nodes and connections showing nothing of the model (an element node without
    // its element, a relationship connection without its relationship: the foreign keys from view_nodes.element_id
    // and connections.relationship_id guarantee that one named exists), connections whose end is not on their view.
    const viewParts = first(
      q,
      sql`
      select 'node' as kind, n.id, n.view_id, v.name, '(none)' as missing, 'element' as what, v.ord as o1, n.ord as o2
      from view_nodes n join views v on v.workspace_id = n.workspace_id and v.id = n.view_id
      where n.workspace_id = ${ws} and n.kind = 'element' and n.element_id is null
      union all
      select 'connection', c.id, c.view_id, v.name, '(none)', 'relationship', v.ord, c.ord
      from connections c join views v on v.workspace_id = c.workspace_id and v.id = c.view_id
      where c.workspace_id = ${ws} and c.kind = 'relationship' and c.relationship_id is null
      union all
      select 'connection', c.id, c.view_id, v.name,
             case when sn.id is null and sc.id is null then c.source_id else c.target_id end, 'end', v.ord, c.ord
      from connections c join views v on v.workspace_id = c.workspace_id and v.id = c.view_id
      left join view_nodes sn on sn.workspace_id = c.workspace_id and sn.id = c.source_id and sn.view_id = c.view_id
      left join connections sc on sn.id is null and sc.workspace_id = c.workspace_id and sc.id = c.source_id
        and sc.view_id = c.view_id
      left join view_nodes tn on tn.workspace_id = c.workspace_id and tn.id = c.target_id and tn.view_id = c.view_id
      left join connections tc on tn.id is null and tc.workspace_id = c.workspace_id and tc.id = c.target_id
        and tc.view_id = c.view_id
      where c.workspace_id = ${ws} and ((sn.id is null and sc.id is null) or (tn.id is null and tc.id is null))`,
      limit,
      (r) => ({
        object: { kind: r.kind as Found["object"]["kind"], id: r.id, view_id: r.view_id },
        name: r.name ?? "",
        message:
          r.what === "end"
            ? `Connection '${r.id}' of view ${quote(r.name)} ends at '${r.missing}', which is not on that view`
            : `${r.kind === "node" ? "Node" : "Connection"} '${r.id}' of view ${quote(r.name)} shows ${r.what} '${r.missing}', which is not in the model`,
        fix_hint: "Delete it from the view (re-add the object from the model tree if it is still wanted)",
      }),
    );
    const [ends, shown] = await Promise.all([relationshipEnds(), viewParts]);
    return { found: [...ends.found, ...shown.found].slice(0, limit), total: ends.total + shown.total };
  },

  async junction_mixed_types(q, ws, limit) {
    const rows = await junctions(q, ws);
    const found = rows
      .filter((j) => Number(j.kinds) > 1)
      .map((j) => ({
        object: { kind: "element" as const, id: j.id, view_id: null },
        name: j.name,
        message: `${label(j.type, j.name)} joins relationships of different types (${j.types}); a junction joins one type`,
        fix_hint: "Make every relationship of the junction the same type, or split it into one junction per type",
      }));
    return judged(found, limit);
  },

  async junction_one_sided(q, ws, limit) {
    const rows = await junctions(q, ws);
    const found = rows
      .filter((j) => Number(j.ins) === 0 || Number(j.outs) === 0)
      .map((j) => ({
        object: { kind: "element" as const, id: j.id, view_id: null },
        name: j.name,
        message:
          Number(j.ins) + Number(j.outs) === 0
            ? `${label(j.type, j.name)} has no relationships`
            : `${label(j.type, j.name)} has only ${Number(j.ins) ? "incoming" : "outgoing"} relationships`,
        fix_hint: "A junction needs at least one relationship in and one out: connect it or delete it",
      }));
    return judged(found, limit);
  },

  async element_not_in_viewpoint(q, ws, limit) {
    // The (viewpoint, element type) pairs shown, with their counts, judged by the viewpoints; then the first offenders.
    const combos = await q(sql`
      select v.viewpoint, e.type, count(*) as n from view_nodes n
      join views v on v.workspace_id = n.workspace_id and v.id = n.view_id
      join elements e on e.workspace_id = n.workspace_id and e.id = n.element_id
      where n.workspace_id = ${ws} and v.viewpoint is not null and v.viewpoint <> ''
      group by 1, 2`);
    const bad = combos.filter((c) => {
      const vp = findViewpoint(c.viewpoint);
      return vp && isElementType(c.type) && !viewpointAllows(vp, c.type);
    });
    if (!bad.length) return NONE;
    const rows = await q(sql`
      with bad as (select * from json_to_recordset(${JSON.stringify(bad)}::json) as b(viewpoint text, type text))
      select e.id, e.type, e.name, v.id as view_id, v.name as view_name, v.viewpoint from view_nodes n
      join views v on v.workspace_id = n.workspace_id and v.id = n.view_id
      join elements e on e.workspace_id = n.workspace_id and e.id = n.element_id
      join bad on bad.viewpoint = v.viewpoint and bad.type = e.type
      where n.workspace_id = ${ws}
      order by v.ord, n.ord
      limit ${literal(limit)}`);
    return {
      total: bad.reduce((sum, c) => sum + Number(c.n), 0),
      found: rows.map((r) => ({
        object: { kind: "element", id: r.id, view_id: r.view_id },
        name: r.name,
        message: `${label(r.type, r.name)} is on view ${quote(r.view_name)}, whose viewpoint ${r.viewpoint} does not allow ${r.type}`,
        fix_hint: "Remove it from the view, or choose a viewpoint that allows it (or none)",
      })),
    };
  },

  element_on_no_view: (q, ws, limit) =>
    first(
      q,
      sql`
      select e.id, e.type, e.name, e.ord as o1, 0 as o2 from elements e
      where e.workspace_id = ${ws}
        and not exists (select 1 from view_nodes n where n.workspace_id = e.workspace_id and n.element_id = e.id)`,
      limit,
      (r) => ({
        object: { kind: "element", id: r.id, view_id: null },
        name: r.name,
        message: `${label(r.type, r.name)} is on no view`,
        fix_hint: "Add it to a view where it belongs, or delete it if it is no longer part of the architecture",
      }),
    ),

  relationship_on_no_view: (q, ws, limit) =>
    first(
      q,
      sql`
      select r.id, r.type, coalesce(r.name, '') as name, r.ord as o1, 0 as o2 from relationships r
      where r.workspace_id = ${ws}
        and not exists (select 1 from connections c where c.workspace_id = r.workspace_id and c.relationship_id = r.id)
        -- Nesting shows a relationship too (one end's node inside the other's, either way round: the rule
        -- nesting_without_relationship asks for exactly that relationship).
        and not exists (select 1 from view_nodes n join view_nodes p on p.workspace_id = n.workspace_id and p.id = n.parent_id
                        where n.workspace_id = r.workspace_id and p.element_id = r.source_id and n.element_id = r.target_id)
        and not exists (select 1 from view_nodes n join view_nodes p on p.workspace_id = n.workspace_id and p.id = n.parent_id
                        where n.workspace_id = r.workspace_id and p.element_id = r.target_id and n.element_id = r.source_id)`,
      limit,
      (r) => ({
        object: { kind: "relationship", id: r.id, view_id: null },
        name: r.name,
        message: `${r.type} relationship ${r.name ? quote(r.name) : `'${r.id}'`} is on no view`,
        fix_hint:
          "Show it on a view with both its ends (a connection, or one nested in the other), or delete it if it is not needed",
      }),
    ),

  empty_view: (q, ws, limit) =>
    first(
      q,
      sql`
      select v.id, v.name, v.ord as o1, 0 as o2 from views v
      where v.workspace_id = ${ws}
        and not exists (select 1 from view_nodes n where n.workspace_id = v.workspace_id and n.view_id = v.id)`,
      limit,
      (r) => ({
        object: { kind: "view", id: r.id, view_id: r.id },
        name: r.name,
        message: `View ${quote(r.name)} is empty`,
        fix_hint: "Add elements to it or delete it",
      }),
    ),

  // Same type and the same name once case and runs of white space are ignored: the names grouped by that key (a
  // hash aggregate), each group's first element (by model order) the original, the others its duplicates.
  duplicate_element: (q, ws, limit) =>
    first(
      q,
      sql`
      with k as (${nameKeys(ws)}),
      g as (select type, key, min(ord) as first_ord from k group by type, key having count(*) > 1)
      select k.id, k.type, k.name, f.id as first_id, f.name as first_name, k.ord as o1, 0 as o2
      from k join g on g.type = k.type and g.key = k.key
      join k f on f.type = g.type and f.key = g.key and f.ord = g.first_ord
      where k.ord <> g.first_ord`,
      limit,
      (r) => ({
        object: { kind: "element", id: r.id, view_id: null },
        name: r.name,
        message: `${label(r.type, r.name)} looks like a duplicate of ${quote(r.first_name)} (${r.first_id}): same type and name`,
        fix_hint: "Merge the two (move the relationships and views of one to the other, then delete it) or rename one",
      }),
      sql`select coalesce(sum(n - 1), 0) as total from (
            select count(*) as n from (${nameKeys(ws)}) k group by type, key having count(*) > 1) g`,
    ),

  nesting_without_relationship: (q, ws, limit) =>
    first(
      q,
      sql`
      select c.id as node_id, c.view_id, v.name as view_name, ce.id, ce.type, ce.name, pe.type as ptype,
             pe.name as pname, v.ord as o1, c.ord as o2
      from view_nodes c
      join view_nodes p on p.workspace_id = c.workspace_id and p.id = c.parent_id
      join elements ce on ce.workspace_id = c.workspace_id and ce.id = c.element_id
      join elements pe on pe.workspace_id = p.workspace_id and pe.id = p.element_id
      join views v on v.workspace_id = c.workspace_id and v.id = c.view_id
      where c.workspace_id = ${ws} and c.parent_id is not null and ce.id <> pe.id
        and pe.type <> 'Grouping'
        and not exists (select 1 from relationships r where r.workspace_id = c.workspace_id
                          and r.source_id = pe.id and r.target_id = ce.id)
        and not exists (select 1 from relationships r where r.workspace_id = c.workspace_id
                          and r.source_id = ce.id and r.target_id = pe.id)`,
      limit,
      (r) => ({
        object: { kind: "element", id: r.id, view_id: r.view_id },
        name: r.name,
        message: `${label(r.type, r.name)} is nested in ${label(r.ptype, r.pname)} on view ${quote(r.view_name)}, but no relationship joins them`,
        fix_hint:
          "Add the relationship the nesting means (composition, aggregation, assignment, realization...) or move the node out",
      }),
    ),

  unused_property_definition: (q, ws, limit) =>
    first(
      q,
      sql`
      select d.id, d.name, d.ord as o1, 0 as o2 from property_definitions d
      where d.workspace_id = ${ws} and not d.is_system
        and not exists (select 1 from property_values pv where pv.workspace_id = d.workspace_id and pv.definition_id = d.id)`,
      limit,
      (r) => ({
        object: { kind: "property_definition", id: r.id, view_id: null },
        name: r.name,
        message: `Property ${quote(r.name)} is defined but no object has a value for it`,
        fix_hint: "Delete the property definition, or give the objects it was meant for their values",
      }),
    ),

  documentation_missing: (q, ws, limit) =>
    first(
      q,
      sql`
      select e.id, e.type, e.name, e.ord as o1, 0 as o2 from elements e
      where e.workspace_id = ${ws} and e.type not in ${JUNCTIONS} and coalesce(btrim(e.documentation), '') = ''`,
      limit,
      (r) => ({
        object: { kind: "element", id: r.id, view_id: null },
        name: r.name,
        message: `${label(r.type, r.name)} has no documentation`,
        fix_hint: "Describe what it is and why it is in the model",
      }),
    ),
};

/** The elements that can be duplicates (named, no junction) with their duplicate key. */
const nameKeys = (ws: string) => sql`
  select id, type, name, ord, lower(regexp_replace(btrim(name), '\\s+', ' ', 'g')) as key from elements
  where workspace_id = ${ws} and type not in ${JUNCTIONS} and btrim(name) <> ''`;

/**
 * One pass over the relationships, shared by relationship_not_allowed and missing_reference: each (type, source
 * type, target type) combination with its count (hash joins to the elements, a hash aggregate). An end that is no
 * element is typed by a second statement, run only when there are such ends: 'Relationship' when it is one, null
 * when it is missing.
 */
const comboMemo = new WeakMap<Q, Promise<Row[]>>();
function relationshipCombos(q: Q, ws: string) {
  let found = comboMemo.get(q);
  if (!found) {
    found = (async () => {
      const combos = await q(sql`
        select r.type, s.type as st, t.type as tt, count(*) as n from relationships r
        left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
        left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
        where r.workspace_id = ${ws}
        group by 1, 2, 3`);
      if (combos.every((c) => c.st && c.tt)) return combos;
      const others = await q(sql`
        select r.type, coalesce(s.type, case when sr.id is not null then 'Relationship' end) as st,
               coalesce(t.type, case when tr.id is not null then 'Relationship' end) as tt, count(*) as n
        from relationships r
        left join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
        left join relationships sr on s.id is null and sr.workspace_id = r.workspace_id and sr.id = r.source_id
        left join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
        left join relationships tr on t.id is null and tr.workspace_id = r.workspace_id and tr.id = r.target_id
        where r.workspace_id = ${ws} and (s.id is null or t.id is null)
        group by 1, 2, 3`);
      return [...combos.filter((c) => c.st && c.tt), ...others];
    })();
    comboMemo.set(q, found);
  }
  return found;
}

/** Each junction with its relationships in and out and their distinct types (shared by both junction rules). */
const junctionMemo = new WeakMap<Q, Promise<Row[]>>();
function junctions(q: Q, ws: string) {
  let found = junctionMemo.get(q);
  if (!found) {
    found = q(sql`
      select j.id, j.type, j.name, count(distinct r.type)::int as kinds, string_agg(distinct r.type, ', ') as types,
             count(*) filter (where r.dir = 'in')::int as ins, count(*) filter (where r.dir = 'out')::int as outs
      from elements j
      left join lateral (
        select type, 'in' as dir from relationships where workspace_id = j.workspace_id and target_id = j.id
        union all
        select type, 'out' from relationships where workspace_id = j.workspace_id and source_id = j.id
      ) r on true
      where j.workspace_id = ${ws} and j.type in ${JUNCTIONS}
      group by j.id, j.type, j.name, j.ord
      order by j.ord`);
    junctionMemo.set(q, found);
  }
  return found;
}

/** An organization rule as one statement (name_pattern: the candidates by type, tested by the checked pattern). */
async function runOrgRule(q: Q, ws: string, rule: StoredRule, limit: number): Promise<Ran> {
  const p = rule.params as {
    element_type: string;
    property: string;
    values: string[];
    pattern: string;
    source_type: string;
    relationship_type: string;
    target_type: string;
    depth: number;
  };
  switch (rule.type) {
    case "required_property":
      return first(
        q,
        sql`
        select e.id, e.type, e.name, e.ord as o1, 0 as o2 from elements e
        where e.workspace_id = ${ws} and e.type = ${p.element_type}
          and not exists (
            select 1 from property_values pv
            join property_definitions d on d.workspace_id = pv.workspace_id and d.id = pv.definition_id
            where pv.workspace_id = e.workspace_id and pv.owner_kind = 'element' and pv.owner_id = e.id
              and lower(d.name) = lower(${p.property}) and btrim(pv.value) <> '')`,
        limit,
        (r) => ({
          object: { kind: "element", id: r.id, view_id: null },
          name: r.name,
          message: `${label(r.type, r.name)} has no ${p.property}: every ${p.element_type} needs one`,
          fix_hint: `Give it a value for the property ${quote(p.property)}`,
        }),
      );
    case "allowed_values":
      return first(
        q,
        sql`
        select e.id, e.type, e.name, pv.value, e.ord as o1, pv.ord as o2 from elements e
        join property_values pv on pv.workspace_id = e.workspace_id and pv.owner_kind = 'element' and pv.owner_id = e.id
        join property_definitions d on d.workspace_id = pv.workspace_id and d.id = pv.definition_id
        where e.workspace_id = ${ws} and e.type = ${p.element_type} and lower(d.name) = lower(${p.property})
          and btrim(pv.value) <> ''
          and pv.value not in (select json_array_elements_text(${JSON.stringify(p.values)}::json))`,
        limit,
        (r) => ({
          object: { kind: "element", id: r.id, view_id: null },
          name: r.name,
          message: `${label(r.type, r.name)} has ${p.property} ${quote(r.value)}, not one of ${p.values.map(quote).join(", ")}`,
          fix_hint: `Set ${p.property} to one of the allowed values`,
        }),
      );
    case "name_pattern": {
      const re = new RegExp(p.pattern, "u");
      const rows = await q(sql`
        select e.id, e.type, e.name from elements e where e.workspace_id = ${ws} and e.type = ${p.element_type}
        order by e.ord`);
      const found = rows
        .filter((r) => !re.test(r.name))
        .map((r) => ({
          object: { kind: "element" as const, id: r.id, view_id: null },
          name: r.name,
          message: `The name of ${label(r.type, r.name)} does not match the pattern /${p.pattern}/`,
          fix_hint: `Rename it to match /${p.pattern}/`,
        }));
      return judged(found, limit);
    }
    case "forbidden_relationship":
      return first(
        q,
        sql`
        select r.id, coalesce(r.name, '') as name, s.name as sname, t.name as tname, r.ord as o1, 0 as o2
        from relationships r
        join elements s on s.workspace_id = r.workspace_id and s.id = r.source_id
        join elements t on t.workspace_id = r.workspace_id and t.id = r.target_id
        where r.workspace_id = ${ws} and r.type = ${p.relationship_type}
          and s.type = ${p.source_type} and t.type = ${p.target_type}`,
        limit,
        (r) => ({
          object: { kind: "relationship", id: r.id, view_id: null },
          name: r.name,
          message: `${p.relationship_type} from ${label(p.source_type, r.sname)} to ${label(p.target_type, r.tname)} is forbidden by the organization`,
          fix_hint: "Model the dependency another way (the organization's rule says which way is wanted) or delete it",
        }),
      );
    case "max_nesting":
      return first(
        q,
        sql`
        with recursive d as (
          select id, view_id, 0 as depth from view_nodes where workspace_id = ${ws} and parent_id is null
          union all
          select c.id, c.view_id, d.depth + 1 from view_nodes c join d on c.parent_id = d.id
          where c.workspace_id = ${ws} and d.depth <= ${p.depth}
        )
        select n.id as node_id, n.view_id, v.name as view_name, n.element_id, n.kind,
               coalesce(e.name, n.label, '') as name, e.type, v.ord as o1, n.ord as o2
        from d join view_nodes n on n.workspace_id = ${ws} and n.id = d.id
        join views v on v.workspace_id = n.workspace_id and v.id = n.view_id
        left join elements e on e.workspace_id = n.workspace_id and e.id = n.element_id
        where d.depth = ${p.depth} + 1`,
        limit,
        (r) => ({
          object: r.element_id
            ? { kind: "element", id: r.element_id, view_id: r.view_id }
            : { kind: "node", id: r.node_id, view_id: r.view_id },
          name: r.name,
          message: `${r.type ? label(r.type, r.name) : quote(r.name)} is nested ${Number(p.depth) + 1} levels deep on view ${quote(r.view_name)}: the organization allows ${p.depth}`,
          fix_hint: "Move it (and what it holds) out to a shallower level, or show the detail on a view of its own",
        }),
      );
  }
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const ORG_LABELS: Record<string, string> = {
  required_property: "Required property",
  allowed_values: "Allowed values",
  name_pattern: "Name pattern",
  forbidden_relationship: "Forbidden relationship",
  max_nesting: "Maximum nesting",
};

/** Which built-in rules run: those on by default, plus `include`, less `exclude`; an unknown id is a 422. */
function chosenBuiltins(input: ValidateInput): BuiltinRule[] {
  for (const key of ["include", "exclude"] as const) {
    const unknown = (input[key] ?? []).filter((id) => !BUILTIN_RULE_IDS.includes(id));
    if (unknown.length) {
      throw invalid(
        key,
        `unknown rule ${unknown.map(quote).join(", ")} (built-in rules: ${BUILTIN_RULE_IDS.join(", ")})`,
      );
    }
  }
  const include = new Set(input.include ?? []);
  const exclude = new Set(input.exclude ?? []);
  return BUILTIN_RULES.filter((r) => (r.on || include.has(r.rule)) && !exclude.has(r.rule)).map((r) => r.rule);
}

/**
 * The workspace checked against the built-in rules and the organization's rules, each rule one or two set-based
 * statements run side by side on the pool; issues sorted by severity, at most `limit` of them, counted in full.
 */
export async function validateWorkspace(
  database: Database,
  ws: string,
  input: ValidateInput,
  orgRules: readonly StoredRule[],
): Promise<ValidationResult> {
  const builtins = chosenBuiltins(input);
  const limit = input.limit ?? 1000;
  type Result = Ran & { rule: string; rule_id: string | null; label: string; severity: Severity };
  const runAll = (q: Q) =>
    Promise.all([
      ...builtins.map(async (rule): Promise<Result> => {
        const meta = BUILTIN_RULES.find((r) => r.rule === rule) as (typeof BUILTIN_RULES)[number];
        const { found, total } = await BUILTIN_CHECKS[rule](q, ws, limit);
        return { rule, rule_id: null, label: meta.label, severity: meta.severity, found, total };
      }),
      ...orgRules
        .filter((r) => r.enabled)
        .map(async (r): Promise<Result> => {
          const { found, total } = await runOrgRule(q, ws, r, limit);
          return {
            rule: r.type,
            rule_id: r.id,
            label: ORG_LABELS[r.type] ?? r.type,
            severity: r.severity,
            found,
            total,
          };
        }),
    ]);
  const ran = await runAll((query) => database.rows<Row>(query));
  // Each rule brought at most `limit` findings, in model order: enough for the first `limit` issues, which a stable
  // sort puts by severity, each rule's findings in model order.
  const all: ValidationIssue[] = [];
  for (const r of ran) {
    for (const f of r.found) all.push({ rule: r.rule, rule_id: r.rule_id, severity: r.severity, ...f });
  }
  all.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const counts = { error: 0, warning: 0, info: 0, total: 0 };
  for (const r of ran) {
    counts[r.severity] += r.total;
    counts.total += r.total;
  }
  return {
    issues: all.slice(0, limit),
    counts,
    truncated: counts.total > limit,
    rules: ran.map((r) => ({
      rule: r.rule,
      rule_id: r.rule_id,
      label: r.label,
      severity: r.severity,
      count: r.total,
    })),
  };
}

/** POST /api/workspaces/:id/validate and the MCP tool validate_model: the active workspace, its organization's rules. */
export async function validateModel({ ctx, input }: Verb<ValidateInput | undefined>): Promise<ValidationResult> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const options = input ?? {};
  const useOrg = options.organization_rules ?? true;
  const orgRules = useOrg && ctx.organizationId ? await organizationRulesOf(ctx, ws) : [];
  return validateWorkspace(ctx.database, ws, options, orgRules);
}

/** The enabled rules of the organization owning the workspace. */
async function organizationRulesOf(ctx: RequestContext, ws: string): Promise<StoredRule[]> {
  const [row] = await ctx.database.rows<{ organization_id: string }>(
    sql`select organization_id from workspaces where id = ${ws}`,
  );
  return row ? readOrganizationRules(ctx, row.organization_id, true) : [];
}
