import type {
  Clause,
  Expr,
  LabelExpr,
  MapProjItem,
  NodePattern,
  Pattern,
  Projection,
  Query,
  RelPattern,
} from "./ast.ts";
import { REGEX_SUBJECT_LIMIT, SUBJECT_TOO_LONG } from "./safe-regex.ts";

/**
 * Prints the syntax tree back to Cypher with every node pattern carrying `scopeLabel`: the query Neo4j runs is
 * this text, never the caller's, so comments, escapes and quoting tricks in the input cannot reach the server.
 * Names are always backtick-quoted and strings re-escaped; binary expressions are fully parenthesized.
 */
export function printScoped(query: Query, scopeLabel: string): string {
  return new Printer(scopeLabel).query(query);
}

export const quoteName = (name: string) => `\`${name.replaceAll("`", "``")}\``;

export function quoteString(value: string): string {
  let out = "'";
  for (const ch of value) {
    // A character of a string's iteration always has a code point; 0 only satisfies the type.
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out += "\\\\";
    else if (ch === "'") out += "\\'";
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}'`;
}

class Printer {
  readonly scope: string;
  constructor(scope: string) {
    this.scope = quoteName(scope);
  }

  query(q: Query): string {
    return q.parts
      .map((p, i) => (i === 0 ? "" : ` ${q.unions[i - 1]} `) + p.clauses.map((c) => this.clause(c)).join(" "))
      .join("");
  }

  clause(c: Clause): string {
    switch (c.kind) {
      case "match":
        return `${c.optional ? "OPTIONAL " : ""}MATCH ${c.patterns.map((p) => this.pattern(p)).join(", ")}${this.where(c.where)}`;
      case "unwind":
        return `UNWIND ${this.expr(c.expr)} AS ${quoteName(c.alias)}`;
      case "with":
        return `WITH ${this.projection(c.proj)}${this.where(c.where)}`;
      case "return":
        return `RETURN ${this.projection(c.proj)}`;
    }
  }

  where(e: Expr | undefined): string {
    return e ? ` WHERE ${this.expr(e)}` : "";
  }

  projection(p: Projection): string {
    const items = p.items.map((i) => this.expr(i.expr) + (i.alias !== undefined ? ` AS ${quoteName(i.alias)}` : ""));
    let out = (p.distinct ? "DISTINCT " : "") + [...(p.star ? ["*"] : []), ...items].join(", ");
    if (p.order.length)
      out += ` ORDER BY ${p.order.map((o) => this.expr(o.expr) + (o.desc ? " DESC" : "")).join(", ")}`;
    if (p.skip) out += ` SKIP ${this.expr(p.skip)}`;
    if (p.limit) out += ` LIMIT ${this.expr(p.limit)}`;
    return out;
  }

  pattern(p: Pattern): string {
    const chain = p.chain.map((part) => (part.kind === "node" ? this.node(part) : this.rel(part))).join("");
    const body = p.selector ? `${p.selector}(${chain})` : chain;
    return p.variable !== undefined ? `${quoteName(p.variable)} = ${body}` : body;
  }

  node(n: NodePattern): string {
    const labels = n.labels ? `${labelOperand(n.labels, "and")}&${this.scope}` : this.scope;
    const props = n.props ? ` ${this.expr(n.props)}` : "";
    return `(${n.variable !== undefined ? quoteName(n.variable) : ""}:${labels}${props}${this.where(n.where)})`;
  }

  rel(r: RelPattern): string {
    let inner = r.variable !== undefined ? quoteName(r.variable) : "";
    if (r.types) inner += `:${printLabel(r.types)}`;
    if (r.length) {
      const { min, max, exact } = r.length;
      inner += exact ? `*${min}` : `*${min ?? ""}${min !== undefined || max !== undefined ? ".." : ""}${max ?? ""}`;
    }
    if (r.props) inner += ` ${this.expr(r.props)}`;
    inner += this.where(r.where);
    return `${r.dir === "left" ? "<-" : "-"}[${inner}]${r.dir === "right" ? "->" : "-"}`;
  }

  expr(e: Expr): string {
    switch (e.k) {
      case "lit":
        return e.text;
      case "str":
        return quoteString(e.value);
      case "param":
        return `$${e.name}`;
      case "var":
        return quoteName(e.name);
      case "prop":
        return `${this.expr(e.obj)}.${quoteName(e.key)}`;
      case "index":
        return `${this.expr(e.obj)}[${this.expr(e.index)}]`;
      case "slice":
        return `${this.expr(e.obj)}[${e.from ? this.expr(e.from) : ""}..${e.to ? this.expr(e.to) : ""}]`;
      case "labelTest":
        return `(${this.expr(e.obj)}:${printLabel(e.labels)})`;
      case "bin":
        if (e.op === "=~") {
          // Backtracking work grows with the subject's length: a longer subject gets a pattern that cannot compile,
          // which Neo4j reports as an error before matching anything (explore maps it to a clear 422).
          const subject = this.expr(e.l);
          return `(${subject} =~ CASE WHEN size(${subject}) > ${REGEX_SUBJECT_LIMIT} THEN ${quoteString(SUBJECT_TOO_LONG)} ELSE ${this.expr(e.r)} END)`;
        }
        return `(${this.expr(e.l)} ${e.op} ${this.expr(e.r)})`;
      case "unary":
        return e.op === "NOT" ? `(NOT ${this.expr(e.e)})` : `(${e.op}${this.expr(e.e)})`;
      case "isNull":
        return `(${this.expr(e.e)} IS ${e.not ? "NOT " : ""}NULL)`;
      case "list":
        return `[${e.items.map((i) => this.expr(i)).join(", ")}]`;
      case "map":
        return `{${e.entries.map(([k, v]) => `${quoteName(k)}: ${this.expr(v)}`).join(", ")}}`;
      case "call":
        return `${e.name}(${e.distinct ? "DISTINCT " : ""}${e.args.map((a) => this.expr(a)).join(", ")})`;
      case "countStar":
        return "count(*)";
      case "case": {
        const whens = e.whens.map(([w, t]) => ` WHEN ${this.expr(w)} THEN ${this.expr(t)}`).join("");
        return `CASE${e.subject ? ` ${this.expr(e.subject)}` : ""}${whens}${e.otherwise ? ` ELSE ${this.expr(e.otherwise)}` : ""} END`;
      }
      case "listComp":
        return `[${quoteName(e.variable)} IN ${this.expr(e.source)}${this.where(e.where)}${e.proj ? ` | ${this.expr(e.proj)}` : ""}]`;
      case "quant":
        return `${e.fn}(${quoteName(e.variable)} IN ${this.expr(e.source)} WHERE ${this.expr(e.where)})`;
      case "reduce":
        return `reduce(${quoteName(e.acc)} = ${this.expr(e.init)}, ${quoteName(e.variable)} IN ${this.expr(e.source)} | ${this.expr(e.body)})`;
      case "patternComp":
        return `[${this.pattern({ ...e.pattern, variable: e.variable })}${this.where(e.where)} | ${this.expr(e.proj)}]`;
      case "pattern":
        return this.pattern(e.pattern);
      case "subquery": {
        const body = e.query
          ? this.query(e.query)
          : `${e.patterns.map((p) => this.pattern(p)).join(", ")}${this.where(e.where)}`;
        return `${e.fn} { ${body} }`;
      }
      case "mapProj":
        return `${quoteName(e.variable)}{${e.items.map((i) => this.mapItem(i)).join(", ")}}`;
    }
  }

  mapItem(i: MapProjItem): string {
    if (i.t === "all") return ".*";
    if (i.t === "prop") return `.${quoteName(i.key)}`;
    if (i.t === "var") return quoteName(i.name);
    return `${quoteName(i.key)}: ${this.expr(i.expr)}`;
  }
}

const RANK = { or: 0, and: 1, not: 2, name: 3, any: 3 } as const;

/** A label expression, parenthesized where needed to sit inside an operator of rank `context`. */
function labelOperand(e: LabelExpr, context: "or" | "and" | "not"): string {
  const s = printLabel(e);
  return RANK[e.k] < RANK[context] ? `(${s})` : s;
}

export function printLabel(e: LabelExpr): string {
  switch (e.k) {
    case "name":
      return quoteName(e.name);
    case "any":
      return "%";
    case "not":
      return `!${labelOperand(e.e, "not")}`;
    case "and":
      return `${labelOperand(e.l, "and")}&${labelOperand(e.r, "and")}`;
    case "or":
      return `${labelOperand(e.l, "or")}|${labelOperand(e.r, "or")}`;
  }
}
