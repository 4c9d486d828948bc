import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

/** `pnpm validate` as CI runs it: a child process, its output and its exit code. */
const script = fileURLToPath(new URL("../../scripts/validate.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "ams-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { maxBuffer: 10_000_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const MODEL = (relType: string) => `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="id-m">
  <name xml:lang="en">CI</name>
  <elements>
    <element identifier="order" xsi:type="DataObject"><name xml:lang="en">Order</name></element>
    <element identifier="srv" xsi:type="Node"><name xml:lang="en">server</name></element>
  </elements>
  <relationships><relationship identifier="r" xsi:type="${relType}" source="order" target="srv"/></relationships>
  <views><diagrams><view identifier="v" xsi:type="Diagram"><name xml:lang="en">Main</name>
    <node identifier="n1" elementRef="order" xsi:type="Element" x="0" y="0" w="120" h="55"/>
    <node identifier="n2" elementRef="srv" xsi:type="Element" x="200" y="0" w="120" h="55"/>
    <connection identifier="c" relationshipRef="r" xsi:type="Relationship" source="n1" target="n2"/>
  </view></diagrams></views>
</model>`;

describe("pnpm validate", () => {
  test("bad usage, an unreadable or malformed file, bad rules: exit 2 with the reason and the usage", async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("name the exchange file");
    expect(none.stderr).toContain("usage: pnpm validate");
    expect((await run(["a.xml", "--colour"])).stderr).toContain("unknown option --colour");
    const missing = await run([join(dir, "nope.xml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    expect(missing.stderr).toContain("ENOENT");
    const junk = await run([file("junk.xml", "this is not <xml")]);
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain("is not an Open Exchange model");
    const model = file("m.xml", MODEL("Association"));
    const rules = await run([model, "--rules", file("bad-rules.json", '[{"type": "max_nesting", "depht": 2}]')]);
    expect(rules.code).toBe(2);
    expect(rules.stderr).toContain("unknown field 'depht'");
    expect((await run([model, "--include", "spelling"])).stderr).toContain("unknown rule 'spelling'");
  }, 240_000);

  test("a model with errors: exit 1, JSON with each issue; organization rules from --rules apply", async () => {
    // Association passes the 3.1 table; Serving from a data object to a node does not (an error).
    const model = file("bad.xml", MODEL("Serving"));
    const rules = file(
      "rules.json",
      JSON.stringify({ rules: [{ type: "name_pattern", element_type: "Node", pattern: "^[A-Z]", severity: "info" }] }),
    );
    const res = await run([model, "--rules", rules, "--json"]);
    expect(res.code, res.stderr).toBe(1);
    const result = JSON.parse(res.stdout);
    expect(result.counts).toMatchObject({ error: 1, info: 1 });
    expect(result.issues[0]).toMatchObject({
      rule: "relationship_not_allowed",
      severity: "error",
      object: { kind: "relationship", id: "r" },
    });
    expect(result.issues.find((i: { rule: string }) => i.rule === "name_pattern")?.object.id).toBe("srv");
  }, 240_000);

  test("a model without errors: exit 0 and a readable list", async () => {
    const res = await run([file("ok.xml", MODEL("Association")), "--include", "documentation_missing"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("documentation_missing");
    expect(res.stdout).toContain("fix: Describe what it is");
    expect(res.stdout).toMatch(/ok\.xml: 0 errors, 0 warnings, 2 information/);
  }, 240_000);
});
