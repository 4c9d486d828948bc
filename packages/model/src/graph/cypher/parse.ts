import type {
  Clause,
  LabelExpr,
  NodePattern,
  Pattern,
  PatternPart,
  Projection,
  Query,
  RelPattern,
  SingleQuery,
} from "./ast.ts";
import { Cursor, REFUSED_CLAUSES } from "./cursor.ts";
import { parseExpr, parseMapLiteral } from "./parse-expr.ts";
import { refuse } from "./refusal.ts";
import { tokenize } from "./tokenize.ts";

/** Parses one read-only query; anything outside the accepted subset is refused with a reason (422). */
export function parseReadQuery(text: string): Query {
  const c = new Cursor(tokenize(text), text, { parseQuery, parsePattern, parseChain, parseLabelExpr });
  if (c.peek().t === "eof") refuse("the query is empty");
  const query = parseQuery(c, true);
  if (c.acceptSym(";") && c.peek().t !== "eof")
    refuse("multiple statements are not allowed; send one query", c.peek().pos);
  if (c.peek().t !== "eof") c.fail("unexpected text after the query");
  if (c.regexParameters.size > 0) query.regexParameters = [...c.regexParameters];
  return query;
}

export function parseQuery(c: Cursor, requireReturn: boolean): Query {
  c.enter();
  const parts = [parseSingle(c, requireReturn)];
  const unions: Query["unions"] = [];
  while (c.acceptKw("union")) {
    unions.push(c.acceptKw("all") ? "UNION ALL" : "UNION");
    parts.push(parseSingle(c, requireReturn));
  }
  c.leave();
  return { parts, unions };
}

function parseSingle(c: Cursor, requireReturn: boolean): SingleQuery {
  const clauses: Clause[] = [];
  for (;;) {
    const w = c.word();
    if (w === "match") {
      c.next();
      clauses.push(parseMatch(c, false));
    } else if (w === "optional") {
      c.next();
      c.expectKw("match");
      clauses.push(parseMatch(c, true));
    } else if (w === "unwind") {
      c.next();
      const expr = parseExpr(c);
      c.expectKw("as");
      clauses.push({ kind: "unwind", expr, alias: c.name("a variable after AS") });
    } else if (w === "with") {
      c.next();
      const proj = parseProjection(c, false);
      clauses.push({ kind: "with", proj, where: c.acceptKw("where") ? parseExpr(c) : undefined });
    } else if (w === "return") {
      c.next();
      clauses.push({ kind: "return", proj: parseProjection(c, true) });
      break;
    } else if (w !== undefined && Object.hasOwn(REFUSED_CLAUSES, w)) {
      refuse(REFUSED_CLAUSES[w] ?? `${w} is not allowed`, c.peek().pos);
    } else {
      break;
    }
  }
  if (clauses.length === 0) c.fail("expected MATCH, OPTIONAL MATCH, UNWIND, WITH or RETURN");
  if (requireReturn && clauses.at(-1)?.kind !== "return") c.fail("the query must end with RETURN");
  return { clauses };
}

function parseMatch(c: Cursor, optional: boolean): Clause {
  const patterns = [parsePattern(c)];
  while (c.acceptSym(",")) patterns.push(parsePattern(c));
  if (c.isKw("using")) refuse("planner hints (USING) are not accepted", c.peek().pos);
  return { kind: "match", optional, patterns, where: c.acceptKw("where") ? parseExpr(c) : undefined };
}

function parseProjection(c: Cursor, isReturn: boolean): Projection {
  const distinct = c.acceptKw("distinct");
  const star = c.acceptSym("*");
  const items: Projection["items"] = [];
  if (!star || c.isSym(",")) {
    if (star) c.next();
    do {
      const start = c.peek().pos;
      const expr = parseExpr(c);
      let alias: string | undefined;
      if (c.acceptKw("as")) alias = c.name("a name after AS");
      else if (isReturn && expr.k !== "var") alias = sourceText(c, start);
      items.push({ expr, alias });
    } while (c.acceptSym(","));
  }
  const proj: Projection = { distinct, star, items, order: [] };
  if (c.isKw("order")) {
    c.next();
    c.expectKw("by");
    do {
      const expr = parseExpr(c);
      const desc = c.acceptKw("desc") || c.acceptKw("descending");
      if (!desc) c.acceptKw("asc") || c.acceptKw("ascending");
      proj.order.push({ expr, desc });
    } while (c.acceptSym(","));
  }
  if (c.acceptKw("skip") || c.acceptKw("offset")) proj.skip = parseExpr(c);
  if (c.acceptKw("limit")) proj.limit = parseExpr(c);
  return proj;
}

/** The column name Neo4j would show for an unaliased RETURN item: the item as written, blanks collapsed. */
function sourceText(c: Cursor, start: number): string {
  return c.source.slice(start, c.peek().pos).replace(/\s+/g, " ").trim();
}

export function parsePattern(c: Cursor): Pattern {
  let variable: string | undefined;
  if (c.isName() && c.isSym("=", 1)) {
    variable = c.name();
    c.next();
  }
  const w = c.word();
  if ((w === "shortestpath" || w === "allshortestpaths") && c.isSym("(", 1)) {
    c.next();
    c.next();
    const chain = parseChain(c);
    c.expectSym(")");
    return { variable, selector: w === "shortestpath" ? "shortestPath" : "allShortestPaths", chain };
  }
  if ((w === "shortest" || w === "any" || w === "all" || w === "repeatable" || w === "different") && !c.isSym("(", 1)) {
    refuse(
      "path selectors and match modes (SHORTEST, ANY, ALL) are not supported; use shortestPath() or allShortestPaths()",
      c.peek().pos,
    );
  }
  return { variable, chain: parseChain(c) };
}

export function parseChain(c: Cursor): PatternPart[] {
  const parts: PatternPart[] = [parseNode(c)];
  while (c.isSym("-") || (c.isSym("<") && c.isSym("-", 1))) {
    parts.push(parseRel(c));
    if (c.isSym("+") || c.isSym("*") || c.isSym("{"))
      refuse("quantified relationships are not supported; use -[*min..max]->", c.peek().pos);
    parts.push(parseNode(c));
  }
  return parts;
}

function parseNode(c: Cursor): NodePattern {
  c.expectSym("(");
  if (c.isSym("(")) refuse("quantified and parenthesized path patterns are not supported", c.peek().pos);
  const node: NodePattern = { kind: "node" };
  if (c.isName()) node.variable = c.name();
  if (c.acceptSym(":")) node.labels = parseLabelExpr(c, true);
  if (c.isSym("{")) node.props = parseMapLiteral(c);
  else if (c.peek().t === "param")
    refuse("property maps must be written out ({key: $value}), not passed as one parameter", c.peek().pos);
  if (c.acceptKw("where")) node.where = parseExpr(c);
  c.expectSym(")");
  if (c.isSym("{") || c.isSym("+") || c.isSym("*")) refuse("quantified path patterns are not supported", c.peek().pos);
  return node;
}

function parseRel(c: Cursor): RelPattern {
  const left = c.acceptSym("<");
  c.expectSym("-");
  const rel: RelPattern = { kind: "rel", dir: "both" };
  if (c.acceptSym("[")) {
    if (c.isName()) rel.variable = c.name();
    if (c.acceptSym(":")) rel.types = parseLabelExpr(c, false);
    if (c.acceptSym("*")) {
      rel.length = {};
      if (c.peek().t === "number") rel.length.min = hopCount(c);
      if (c.acceptSym("..")) {
        if (c.peek().t === "number") rel.length.max = hopCount(c);
      } else if (rel.length.min !== undefined) {
        rel.length.exact = true;
      }
    }
    if (c.isSym("{")) rel.props = parseMapLiteral(c);
    else if (c.peek().t === "param")
      refuse("property maps must be written out ({key: $value}), not passed as one parameter", c.peek().pos);
    if (c.acceptKw("where")) rel.where = parseExpr(c);
    c.expectSym("]");
  }
  c.expectSym("-");
  const right = c.acceptSym(">");
  rel.dir = left && !right ? "left" : right && !left ? "right" : "both";
  return rel;
}

function hopCount(c: Cursor): string {
  const v = c.next().v;
  if (!/^\d{1,6}$/.test(v)) refuse("path lengths must be plain whole numbers");
  return String(Number(v));
}

/** Label and relationship-type expressions: names, %, !, &, |, parentheses (and A:B for labels). */
export function parseLabelExpr(c: Cursor, colonMeansAnd: boolean): LabelExpr {
  c.enter();
  let l = parseLabelAnd(c, colonMeansAnd);
  while (c.acceptSym("|")) {
    c.acceptSym(":");
    l = { k: "or", l, r: parseLabelAnd(c, colonMeansAnd) };
  }
  c.leave();
  return l;
}

function parseLabelAnd(c: Cursor, colonMeansAnd: boolean): LabelExpr {
  let l = parseLabelNot(c, colonMeansAnd);
  while (c.isSym("&") || (colonMeansAnd && c.isSym(":"))) {
    c.next();
    l = { k: "and", l, r: parseLabelNot(c, colonMeansAnd) };
  }
  return l;
}

function parseLabelNot(c: Cursor, colonMeansAnd: boolean): LabelExpr {
  if (c.acceptSym("!")) return { k: "not", e: parseLabelNot(c, colonMeansAnd) };
  if (c.acceptSym("(")) {
    const e = parseLabelExpr(c, colonMeansAnd);
    c.expectSym(")");
    return e;
  }
  if (c.acceptSym("%")) return { k: "any" };
  const t = c.peek();
  if ((t.t === "sym" && t.v === "$") || t.t === "param")
    refuse("dynamic labels and types ($(...), $param) are not allowed", t.pos);
  if (t.t !== "ident") c.fail("expected a label or relationship type");
  return { k: "name", name: c.next().v };
}
