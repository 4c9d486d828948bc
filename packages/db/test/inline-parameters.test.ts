import postgres from "postgres";
import { afterAll, describe, expect, test } from "vitest";
import { inlineParameters } from "../src/open.ts";
import { testServerUrl } from "../src/testing.ts";

/**
 * COPY takes no bind parameters, so `copyOut` writes a statement's parameters into it as literals. On real
 * PostgreSQL: every string comes back as itself, whatever `standard_conforming_strings` says, and nothing in a value
 * ends its literal (an injection would change the answer or fail the statement).
 */
const client = postgres(testServerUrl, { max: 1, onnotice: () => {} });
afterAll(() => client.end({ timeout: 5 }));

const hostile = [
  "plain",
  "",
  "it's",
  "''",
  "\\",
  "\\'",
  "'\\",
  "x' or '1'='1",
  "'); drop table users; --",
  "E'\\x41'",
  "$1 $2 $$ $tag$",
  "tab\tnew\nline\rreturn",
  "Ünïcödé 中文 🚀 \u2028",
  "%_\\%",
];

describe("parameters written into a statement as literals", () => {
  for (const setting of ["on", "off"]) {
    test(`each string comes back as itself (standard_conforming_strings ${setting})`, async () => {
      await client.begin(async (tx) => {
        await tx.unsafe(`set local standard_conforming_strings = ${setting}`);
        for (const value of hostile) {
          const [row] = await tx.unsafe(`select ${inlineParameters("$1::text as v, $2::int as n", [value, 7])}`);
          expect(row).toEqual({ v: value, n: 7 });
        }
      });
    });
  }

  test("numbers, booleans and null as such; a negative number in parentheses", async () => {
    const text = inlineParameters("select $1::int - $2::int as d, $3::boolean as b, $4::text as z", [
      3,
      -4,
      true,
      null,
    ]);
    expect(text).toBe("select 3::int - (-4)::int as d, true::boolean as b, NULL::text as z");
    const [row] = await client.unsafe(text);
    expect(row).toEqual({ d: 7, b: true, z: null });
  });

  test("a statement's placeholders past $9 are each replaced whole", () => {
    const params = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);
    const text = inlineParameters("$1,$10,$11,$12,$2", params);
    expect(text).toBe("E'p1',E'p10',E'p11',E'p12',E'p2'");
  });

  test("what cannot be written inline is refused, naming the parameter", () => {
    expect(() => inlineParameters("select $1", ["a\0b"])).toThrow("parameter $1 holds a NUL character");
    expect(() => inlineParameters("select $1", [{ a: 1 }])).toThrow("parameter $1 is of type object");
    expect(() => inlineParameters("select $1", [Number.NaN])).toThrow("parameter $1 is of type number");
    expect(() => inlineParameters("select $2", ["a"])).toThrow("statement names $2, which has no parameter");
  });
});
