import { describe, expect, test } from "vitest";
import { assertStorableText, findUnstorableText, findUnstorableTextInUrl } from "../src/index.ts";

describe("text PostgreSQL cannot store", () => {
  test("names the path of a NUL or an unpaired surrogate in nested JSON, keys included", () => {
    expect(findUnstorableText({ a: [{ b: "x" }, { c: "y\u0000" }] })).toEqual({ path: "a.1.c", problem: "nul" });
    expect(findUnstorableText({ "k\u0000": 1 })).toEqual({ path: "k\\u0000", problem: "nul" });
    expect(findUnstorableText({ t: "\udfff\ud800" })).toEqual({ path: "t", problem: "surrogate" });
    expect(findUnstorableText({ ok: "😀 ünïcödé", n: 1, b: true, z: null })).toBeUndefined();
  });

  test("finds NUL in a path or a query parameter, and nothing in an ordinary URL", () => {
    expect(findUnstorableTextInUrl("http://x/api/elements/a%00b")).toEqual({ path: "path", problem: "nul" });
    expect(findUnstorableTextInUrl("http://x/api/elements?name=a%00")).toEqual({ path: "query.name", problem: "nul" });
    expect(findUnstorableTextInUrl("http://x/api/elements?name=100%25")).toBeUndefined();
  });

  test("a JSON request with such text is a 422; the route can still read the body", async () => {
    const req = new Request("http://x/api/elements", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"a\\u0000b"}',
    });
    await expect(assertStorableText(req)).rejects.toMatchObject({ code: "VALIDATION", errors: [{ path: "name" }] });
    const fine = new Request("http://x/api/elements", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"CRM"}',
    });
    await assertStorableText(fine);
    expect(await fine.json()).toEqual({ name: "CRM" });
  });
});
