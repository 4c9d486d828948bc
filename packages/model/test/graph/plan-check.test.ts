import { describe, expect, test } from "vitest";
import { checkPlan, type PlanNode } from "../../src/graph/plan-check.ts";

const S = "W_00000000000000000000000000000000_A";
const op = (operatorType: string, details: string, ...children: PlanNode[]): PlanNode => ({
  operatorType: `${operatorType}@neo4j`,
  arguments: { Details: details },
  identifiers: [],
  children,
});
const results = (child: PlanNode) => op("ProduceResults", "n", child);

describe("the EXPLAIN check", () => {
  test("accepts scans on the workspace label and other scans filtered by it", () => {
    expect(() => checkPlan(results(op("NodeByLabelScan", `n:${S}`)), S)).not.toThrow();
    expect(() => checkPlan(results(op("IntersectionNodeByLabelsScan", `n:Element&${S}`)), S)).not.toThrow();
    expect(() =>
      checkPlan(results(op("Filter", `n:${S}`, op("NodeByLabelScan", "n:ApplicationComponent"))), S),
    ).not.toThrow();
    expect(() =>
      checkPlan(
        results(op("Filter", `(a:${S} AND b:${S})`, op("DirectedRelationshipTypeScan", "(a)-[r:SERVING]->(b)"))),
        S,
      ),
    ).not.toThrow();
    expect(() =>
      checkPlan(
        results(op("Filter", `n:Element AND n:${S}`, op("NodeByElementIdSeek", "n WHERE elementId(n) = $x"))),
        S,
      ),
    ).not.toThrow();
  });

  test("refuses anything that reads outside the workspace label or writes", () => {
    expect(() => checkPlan(results(op("AllNodesScan", "n")), S)).toThrow(/scans all nodes/);
    expect(() => checkPlan(results(op("NodeByLabelScan", "n:GraphMeta")), S)).toThrow(/outside the workspace label/);
    expect(() => checkPlan(results(op("UnionNodeByLabelsScan", `n:A|${S}`)), S)).toThrow(/outside the workspace label/);
    expect(() => checkPlan(results(op("Filter", "m:" + S, op("NodeByLabelScan", "n:A"))), S)).toThrow(/outside/);
    expect(() => checkPlan(results(op("NodeByElementIdSeek", "n WHERE elementId(n) = $x")), S)).toThrow(/outside/);
    expect(() => checkPlan(results(op("DirectedRelationshipTypeScan", "(a)-[r:SERVING]->(b)")), S)).toThrow(
      /relationships/,
    );
    expect(() => checkPlan(results(op("DirectedAllRelationshipsScan", "(a)-[r]->(b)")), S)).toThrow(
      /all relationships/,
    );
    expect(() => checkPlan(results(op("Create", "(n)", op("NodeByLabelScan", `n:${S}`))), S)).toThrow(/Create/);
    expect(() => checkPlan(results(op("ProcedureCall", "db.labels()")), S)).toThrow(/ProcedureCall/);
    expect(() => checkPlan(results(op("LoadCSV", "line")), S)).toThrow(/LoadCSV/);
  });
});

test("an index seek on Element(id) is accepted under a Filter on the workspace label, refused without one", () => {
  // Details as Neo4j 5.26 prints them for MATCH (a:Element {id: $id}) once the element_id index exists.
  const seek = (variable: string) => op("NodeIndexSeek", `RANGE INDEX ${variable}:Element(id) WHERE id = $id`);
  expect(() => checkPlan(results(op("Filter", `a:${S}`, seek("a"))), S)).not.toThrow();
  expect(() => checkPlan(results(op("Filter", `\`my var\`:${S}`, seek("`my var`"))), S)).not.toThrow();
  const range = op("NodeIndexSeekByRange", "RANGE INDEX a:Element(id) WHERE id STARTS WITH $autostring_0");
  expect(() => checkPlan(results(op("Filter", `a:${S}`, range)), S)).not.toThrow();
  expect(() => checkPlan(results(seek("a")), S)).toThrow(/reads a \(NodeIndexSeek\) outside the workspace label/);
  expect(() => checkPlan(results(op("Filter", `b:${S}`, seek("a"))), S)).toThrow(/outside the workspace label/);
  // A variable that happens to be called RANGE is still a variable in a label scan.
  expect(() => checkPlan(results(op("NodeByLabelScan", "RANGE:GraphMeta")), S)).toThrow(/reads RANGE/);
});

test("counts from the count store must be on the workspace label", () => {
  expect(() => checkPlan(results(op("NodeCountFromCountStore", `count( (:${S}) ) AS c`)), S)).not.toThrow();
  expect(() => checkPlan(results(op("NodeCountFromCountStore", "count( (:Element) ) AS c")), S)).toThrow(
    /counts outside/,
  );
  expect(() => checkPlan(results(op("RelationshipCountFromCountStore", "count( ()-[:SERVING]->() ) AS c")), S)).toThrow(
    /counts outside/,
  );
});
