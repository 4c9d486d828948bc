/** Syntax tree of the read-only Cypher subset explore accepts; the printer turns it back into Cypher. */
export type Query = {
  parts: SingleQuery[];
  unions: ("UNION" | "UNION ALL")[];
  /** Parameters used as the pattern of =~ anywhere in the query (top level only): checked before it runs. */
  regexParameters?: string[];
};
export type SingleQuery = { clauses: Clause[] };

export type Clause =
  | { kind: "match"; optional: boolean; patterns: Pattern[]; where?: Expr }
  | { kind: "unwind"; expr: Expr; alias: string }
  | { kind: "with"; proj: Projection; where?: Expr }
  | { kind: "return"; proj: Projection };

export type Projection = {
  distinct: boolean;
  star: boolean;
  items: { expr: Expr; alias?: string }[];
  order: { expr: Expr; desc: boolean }[];
  skip?: Expr;
  limit?: Expr;
};

export type Pattern = { variable?: string; selector?: "shortestPath" | "allShortestPaths"; chain: PatternPart[] };
export type PatternPart = NodePattern | RelPattern;
export type NodePattern = { kind: "node"; variable?: string; labels?: LabelExpr; props?: Expr; where?: Expr };
export type RelPattern = {
  kind: "rel";
  dir: "left" | "right" | "both";
  variable?: string;
  types?: LabelExpr;
  /** Variable length: `*` (both undefined), `*2`, `*1..3`, `*..3`, `*2..`. */
  length?: { min?: string; max?: string; exact?: boolean };
  props?: Expr;
  where?: Expr;
};

export type LabelExpr =
  | { k: "name"; name: string }
  | { k: "any" }
  | { k: "not"; e: LabelExpr }
  | { k: "and"; l: LabelExpr; r: LabelExpr }
  | { k: "or"; l: LabelExpr; r: LabelExpr };

export type MapProjItem =
  | { t: "prop"; key: string }
  | { t: "all" }
  | { t: "var"; name: string }
  | { t: "entry"; key: string; expr: Expr };

export type Expr =
  | { k: "lit"; text: string }
  | { k: "str"; value: string }
  | { k: "param"; name: string }
  | { k: "var"; name: string }
  | { k: "prop"; obj: Expr; key: string }
  | { k: "index"; obj: Expr; index: Expr }
  | { k: "slice"; obj: Expr; from?: Expr; to?: Expr }
  | { k: "labelTest"; obj: Expr; labels: LabelExpr }
  | { k: "bin"; op: string; l: Expr; r: Expr }
  | { k: "unary"; op: "NOT" | "-" | "+"; e: Expr }
  | { k: "isNull"; e: Expr; not: boolean }
  | { k: "list"; items: Expr[] }
  | { k: "map"; entries: [string, Expr][] }
  | { k: "call"; name: string; distinct: boolean; args: Expr[] }
  | { k: "countStar" }
  | { k: "case"; subject?: Expr; whens: [Expr, Expr][]; otherwise?: Expr }
  | { k: "listComp"; variable: string; source: Expr; where?: Expr; proj?: Expr }
  | { k: "quant"; fn: "all" | "any" | "none" | "single"; variable: string; source: Expr; where: Expr }
  | { k: "reduce"; acc: string; init: Expr; variable: string; source: Expr; body: Expr }
  | { k: "patternComp"; variable?: string; pattern: Pattern; where?: Expr; proj: Expr }
  | { k: "pattern"; pattern: Pattern }
  // A subquery is either a whole query (EXISTS { MATCH ... RETURN ... }) or patterns with a WHERE (EXISTS { (a)-->(b) }).
  | { k: "subquery"; fn: "EXISTS" | "COUNT" | "COLLECT"; query: Query; patterns?: undefined; where?: undefined }
  | { k: "subquery"; fn: "EXISTS" | "COUNT" | "COLLECT"; query?: undefined; patterns: Pattern[]; where?: Expr }
  | { k: "mapProj"; variable: string; items: MapProjItem[] };
