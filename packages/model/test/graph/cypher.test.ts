import { describe, expect, test } from "vitest";
import { parseReadQuery, printScoped } from "../../src/graph/cypher/index.ts";

const S = "W_00000000000000000000000000000000_A";
const scoped = (q: string) => printScoped(parseReadQuery(q), S);
const refusal = (q: string) => {
  try {
    scoped(q);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`not refused: ${q}`);
};

describe("the rewrite puts the workspace label on every node pattern", () => {
  test.each([
    ["MATCH (n) RETURN n", "MATCH (`n`:`W_x`) RETURN `n`"],
    ["MATCH (a:A)-[r:SERVING]->(b) RETURN b", "MATCH (`a`:`A`&`W_x`)-[`r`:`SERVING`]->(`b`:`W_x`) RETURN `b`"],
    ["MATCH (n:A|B) RETURN n", "MATCH (`n`:(`A`|`B`)&`W_x`) RETURN `n`"],
    ["MATCH (n:A:B) RETURN n", "MATCH (`n`:`A`&`B`&`W_x`) RETURN `n`"],
    ["MATCH (n:!A) RETURN n", "MATCH (`n`:!`A`&`W_x`) RETURN `n`"],
    ["MATCH ()<-[*1..3]-() RETURN 1 AS x", "MATCH (:`W_x`)<-[*1..3]-(:`W_x`) RETURN 1 AS `x`"],
    [
      "MATCH p = shortestPath((a)-[*]-(b)) RETURN p",
      "MATCH `p` = shortestPath((`a`:`W_x`)-[*]-(`b`:`W_x`)) RETURN `p`",
    ],
    ["MATCH (a) WHERE (a)-->() RETURN a", "MATCH (`a`:`W_x`) WHERE (`a`:`W_x`)-[]->(:`W_x`) RETURN `a`"],
    [
      "MATCH (a) RETURN [(a)--(b) | b.name] AS n",
      "MATCH (`a`:`W_x`) RETURN [(`a`:`W_x`)-[]-(`b`:`W_x`) | `b`.`name`] AS `n`",
    ],
    [
      "MATCH (a) WHERE EXISTS { (a)--(:X) } RETURN a",
      "MATCH (`a`:`W_x`) WHERE EXISTS { (`a`:`W_x`)-[]-(:`X`&`W_x`) } RETURN `a`",
    ],
    ["RETURN COUNT { MATCH (b) } AS c", "RETURN COUNT { MATCH (`b`:`W_x`) } AS `c`"],
  ])("%s", (input, expected) => {
    expect(scoped(input)).toBe(expected.replaceAll("W_x", S));
  });

  test("strings, names and comments are re-printed, never passed through", () => {
    expect(scoped("MATCH (n) /* c */ WHERE n.name = 'a\\'b\\u0041' // end\nRETURN n.`we``ird` AS `x`")).toBe(
      `MATCH (\`n\`:\`${S}\`) WHERE (\`n\`.\`name\` = 'a\\'bA') RETURN \`n\`.\`we\`\`ird\` AS \`x\``,
    );
    expect(scoped("RETURN 'line\nbreak' AS s")).toBe("RETURN 'line\\u000abreak' AS `s`");
  });

  test("unaliased RETURN items keep the column names Neo4j would give them", () => {
    expect(scoped("MATCH (n) RETURN n.name, count(*)")).toBe(
      `MATCH (\`n\`:\`${S}\`) RETURN \`n\`.\`name\` AS \`n.name\`, count(*) AS \`count(*)\``,
    );
  });
});

describe("refusals name the reason", () => {
  test.each([
    ["MATCH (n) SET n.x = 1 RETURN n", /SET writes/],
    ["CALL db.labels()", /CALL/],
    ["MATCH (n) RETURN n; RETURN 1", /multiple statements/],
    ["MATCH (n)", /must end with RETURN/],
    ["MATCH (n) RETURN toUpper(n.name), apoc.text.join([], '')", /apoc\.text\.join\(\) is not allowed/],
    ['MATCH (n:$("A")) RETURN n', /dynamic labels/],
    ["RETURN $`a b`", /parameter names/],
    ["MATCH (n) WHERE n.x IS :: INTEGER RETURN n", /IS NULL/],
    [`RETURN ${"(".repeat(100)}1${")".repeat(100)}`, /nests too deeply/],
    ["", /empty/],
  ])("%s", (query, reason) => {
    expect(refusal(query)).toMatch(reason);
  });

  test("a query longer than the limit is refused before it is read", () => {
    expect(refusal(`RETURN '${"x".repeat(25_000)}'`)).toMatch(/longer than/);
  });
});
