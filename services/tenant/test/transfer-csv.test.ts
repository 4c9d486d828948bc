import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readZip } from "../../../packages/model/src/transfer/read-zip.ts";
import { SERVICE_TOKEN_HEADER } from "../src/index.ts";
import { type Caller, type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
beforeAll(async () => {
  h = await tenantHarness();
});
afterAll(() => h.close());

// Fixtures shaped like Archi's own CSV importer test files: every field quoted, quotes doubled, line breaks inside
// documentation, Archi's short hexadecimal ids (which start with a digit), LF line ends and a trailing newline.
const ELEMENTS = `"ID","Type","Name","Documentation","Specialization"
"862677a6","ArchimateModel","Test Model","This is the Purpose of the Model.
It has a line break and ""some"" quotes.
",""
"f00aa5b4","BusinessActor","Business Actor","This is the Business Actor
Documentation
Here """"
","Specialization1"
"d9fe8c17","BusinessInterface","Business Interface","",""
"f6a18059","BusinessRole","Business Role","Some more docs
Here
",""
"j1","Junction","","",""
`;
const RELATIONS = `"ID","Type","Name","Documentation","Source","Target","Specialization"
"r1","AssignmentRelationship","assigned","","f00aa5b4","f6a18059",""
"r2","ServingRelationship","","","d9fe8c17","f6a18059",""
"r3","AssociationRelationship","","","f00aa5b4","d9fe8c17",""
`;
const PROPERTIES = `"ID","Key","Value"
"862677a6","Model Key","Model value"
"f00aa5b4","Owner","Sales"
"f00aa5b4","Cost","12"
"r3","Directed","true"
"j1","Junction_Type","Or"
`;

async function send(caller: Caller, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  const token = await h.tokens.sign(
    { ...caller, username: caller.userId, platformAdmin: false, apiTokenId: null },
    "tenant",
  );
  const res = await h.app.request(path, {
    method: "POST",
    body,
    headers: { ...headers, [SERVICE_TOKEN_HEADER]: token },
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null };
}

function form(files: Record<string, string | Uint8Array>): FormData {
  const f = new FormData();
  for (const [name, content] of Object.entries(files)) f.append(name, new Blob([content as BlobPart]), name);
  return f;
}

const importCsv = (org: OrgFixture, files: Record<string, string | Uint8Array>) =>
  send(org.editor.caller, "/api/import?format=csv", form(files));

async function exported(org: OrgFixture) {
  const token = await h.tokens.sign(
    { ...org.viewer.caller, username: "v", platformAdmin: false, apiTokenId: null },
    "tenant",
  );
  const res = await h.app.request("/api/export?format=csv", { headers: { [SERVICE_TOKEN_HEADER]: token } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\(CSV\)\.zip"$/);
  const zip = new Uint8Array(await res.arrayBuffer());
  const files = Object.fromEntries(
    readZip(zip, { maxTotalBytes: 1e8 }).map((e) => [e.name, new TextDecoder().decode(e.bytes)]),
  );
  return { zip, files };
}

async function elementsOf(org: OrgFixture) {
  const res = await org.viewer.get("/api/elements");
  return res.body as {
    id: string;
    type: string;
    name: string;
    documentation: string | null;
    properties: Record<string, unknown>;
  }[];
}

describe("Archi's CSV format", () => {
  test("imports Archi's files: model row, quoting, line breaks, properties, junction type, directed association", async () => {
    const org = await h.organization();
    const res = await importCsv(org, {
      "test1-elements.csv": ELEMENTS,
      "test1-relations.csv": RELATIONS,
      "test1-properties.csv": PROPERTIES,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ elements: 4, relationships: 3, created: 7, updated: 0 });
    const els = await elementsOf(org);
    const actor = els.find((e) => e.id === "f00aa5b4");
    expect(actor).toMatchObject({ type: "BusinessActor", name: "Business Actor" });
    expect(actor?.documentation).toBe('This is the Business Actor\nDocumentation\nHere ""\n');
    expect(actor?.properties).toMatchObject({ Owner: "Sales", Cost: "12", Specialization: "Specialization1" });
    expect(els.find((e) => e.id === "j1")?.type).toBe("OrJunction");
    const r3 = await org.viewer.get("/api/relationships/r3");
    expect(r3.body).toMatchObject({ type: "Association", source: "f00aa5b4", target: "d9fe8c17" });
    expect(r3.body.is_directed).toBe(true);
    const model = await org.viewer.get("/api/export");
    expect(model.text).toContain("Test Model");
    expect(model.text).toContain(`It has a line break and "some" quotes.`);
    expect(model.text).toContain("Model value");
    // One change group for the whole import.
    const history = await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=5`);
    const groups = history.body.items as { summary: string }[];
    expect(groups.filter((g) => g.summary.startsWith("Imported CSV"))).toHaveLength(1);
  });

  test("a row whose ID exists updates that object; a file without the Specialization column is read", async () => {
    const org = await h.organization();
    expect(
      (await importCsv(org, { "elements.csv": ELEMENTS, "relations.csv": RELATIONS, "properties.csv": PROPERTIES }))
        .status,
    ).toBe(200);
    const update = await importCsv(org, {
      "elements.csv": `"ID","Type","Name","Documentation"\r\n"f00aa5b4","BusinessActor","Customer","New docs"\r\n"n1","ApplicationComponent","CRM",""`,
      "relations.csv": `"ID","Type","Name","Documentation","Source","Target"\r\n"r1","AssignmentRelationship","renamed","","f00aa5b4","f6a18059"\r\n"r9","ServingRelationship","","","n1","f00aa5b4"`,
      "properties.csv": `"ID","Key","Value"\r\n"f00aa5b4","Owner","Marketing"\r\n"n1","Owner","IT"`,
    });
    expect(update.status, update.text).toBe(200);
    expect(update.body).toMatchObject({ created: 2, updated: 2 });
    const els = await elementsOf(org);
    expect(els).toHaveLength(5);
    const actor = els.find((e) => e.id === "f00aa5b4");
    expect(actor).toMatchObject({ name: "Customer", documentation: "New docs" });
    expect(actor?.properties).toMatchObject({ Owner: "Marketing", Cost: "12" });
    expect(els.find((e) => e.id === "n1")?.properties).toMatchObject({ Owner: "IT" });
    expect((await org.viewer.get("/api/relationships/r1")).body.name).toBe("renamed");
  });

  test.each([
    [
      "an unknown element type",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A","",""\n"e2","Spaceship","B","",""`,
      },
      /elements\.csv row 3 \(line 3\), column Type: unknown element type 'Spaceship'/,
    ],
    [
      "a relationship to an unknown ID",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A","",""`,
        "relations.csv": `"ID","Type","Name","Documentation","Source","Target","Specialization"\n"r1","AssignmentRelationship","","","e1","nope",""`,
      },
      /relations\.csv row 2 \(line 2\), column Target: 'nope' is neither an element nor a relationship/,
    ],
    [
      "a relationship ArchiMate does not allow",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A","",""\n"e2","Node","N","",""`,
        "relations.csv": `"ID","Type","Name","Documentation","Source","Target","Specialization"\n"r1","CompositionRelationship","","","e1","e2",""`,
      },
      /relations\.csv row 2 \(line 2\), column Type: ArchiMate 3\.1 does not allow Composition from BusinessActor 'e1' to Node 'e2'/,
    ],
    [
      "a duplicate relationship row",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","","",""\n"e2","BusinessActor","","",""\n"e3","BusinessRole","","",""\n"e4","BusinessRole","","",""`,
        "relations.csv": `"ID","Type","Name","Documentation","Source","Target","Specialization"\n"r1","AssignmentRelationship","","","e1","e3",""\n"r1","AssignmentRelationship","","","e2","e4",""`,
      },
      /relations\.csv row 3 \(line 3\), column ID: 'r1' is given twice \(first at relations\.csv row 2/,
    ],
    [
      "unbalanced quotes",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A",""\n"e2","BusinessActor","B,"",""`,
      },
      /elements\.csv row \d \(line \d\), column (Documentation|Name)/,
    ],
    [
      "a formula-looking cell",
      {
        "elements.csv": `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","=HYPERLINK(""http://evil"",""x"")","",""`,
      },
      /elements\.csv row 2 \(line 2\), column Name: .*looks like a spreadsheet formula/,
    ],
    [
      "a property of an unknown ID",
      { "properties.csv": `"ID","Key","Value"\n"ghost","Owner","x"` },
      /properties\.csv row 2 \(line 2\), column ID: 'ghost' is not an element/,
    ],
  ])("refuses %s with 422 naming file, row and column, importing nothing", async (_what, files, message) => {
    const org = await h.organization();
    const res = await importCsv(org, files as Record<string, string>);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].path + ": " + res.body.errors[0].message).toMatch(message);
    expect(await elementsOf(org)).toHaveLength(0);
  });

  test("bad UTF-8 and a 10 MB field are refused naming row and column", async () => {
    const org = await h.organization();
    const header = Buffer.from(
      `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A","",""\n"e2","BusinessActor","Caf`,
    );
    const latin1 = Buffer.concat([header, Buffer.from([0xe9]), Buffer.from(`","",""`)]);
    const bad = await importCsv(org, { "elements.csv": new Uint8Array(latin1) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("elements.csv row 3 (line 3), column 3");
    expect(bad.body.errors[0].message).toMatch(/not valid UTF-8/);
    const huge = `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","A","${"x".repeat(10 * 1024 * 1024)}",""`;
    const big = await importCsv(org, { "elements.csv": huge });
    expect(big.status).toBe(422);
    expect(big.body.errors[0].path).toBe("elements.csv row 2 (line 2), column Documentation");
    expect(big.body.errors[0].message).toMatch(/longer than 1 MiB/);
    expect(await elementsOf(org)).toHaveLength(0);
  });

  test("a BOM and a semicolon delimiter (Archi's other export options) are read", async () => {
    const org = await h.organization();
    const text = `\uFEFF"ID";"Type";"Name";"Documentation";"Specialization"\r\n"e1";"BusinessActor";"A; B";"";""`;
    const res = await importCsv(org, { "elements.csv": text });
    expect(res.status, res.text).toBe(200);
    expect((await elementsOf(org))[0]?.name).toBe("A; B");
  });

  test("text that only starts with a dash or plus imports as it is; +/- followed by a formula is refused", async () => {
    const org = await h.organization();
    const text = `"ID","Type","Name","Documentation","Specialization"\n"e1","BusinessActor","-5","- first point\n- second point",""\n"e2","BusinessActor","+ Partner","-",""`;
    const res = await importCsv(org, { "elements.csv": text });
    expect(res.status, res.text).toBe(200);
    const byId = new Map((await elementsOf(org)).map((e) => [e.id, e]));
    expect(byId.get("e1")).toMatchObject({ name: "-5", documentation: "- first point\n- second point" });
    expect(byId.get("e2")).toMatchObject({ name: "+ Partner", documentation: "-" });

    const evil = `"ID","Type","Name","Documentation","Specialization"\n"e3","BusinessActor","x","-2+3+cmd|' /C calc'!A0",""`;
    const refused = await importCsv(org, { "elements.csv": evil });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(/column Documentation: .*looks like a spreadsheet formula/);
  });

  test("export writes Archi's files, neutralises formulas, and round-trips into an empty workspace", async () => {
    const org = await h.organization();
    expect(
      (await importCsv(org, { "elements.csv": ELEMENTS, "relations.csv": RELATIONS, "properties.csv": PROPERTIES }))
        .status,
    ).toBe(200);
    const el = await org.editor.post("/api/elements", { type: "ApplicationComponent", name: "=cmd|' /C calc'!A0" });
    expect(el.status, el.text).toBe(201);
    const { zip, files } = await exported(org);
    expect(Object.keys(files).sort()).toEqual(["elements.csv", "properties.csv", "relations.csv"]);
    const elements = files["elements.csv"] ?? "";
    expect(
      elements.startsWith(
        `"ID","Type","Name","Documentation","Specialization"\r\n"862677a6"`.replace("862677a6", "id-862677a6"),
      ),
    ).toBe(true);
    expect(elements).toContain(`"ApplicationComponent","'=cmd|' /C calc'!A0"`);
    expect(elements).toContain(`"Junction"`);
    expect(elements.endsWith("\r\n")).toBe(false);
    expect(files["relations.csv"]).toContain(`"r1","AssignmentRelationship","assigned","","f00aa5b4","f6a18059",""`);
    expect(files["properties.csv"]).toContain(`"j1","Junction_Type","Or"`);
    expect(files["properties.csv"]).toContain(`"r3","Directed","true"`);

    const copy = await h.organization();
    const res = await send(copy.editor.caller, "/api/import?format=csv", zip, { "content-type": "application/zip" });
    expect(res.status, res.text).toBe(200);
    const strip = (xs: Awaited<ReturnType<typeof elementsOf>>) =>
      xs
        .map(({ id, type, name, documentation, properties }) => ({ id, type, name, documentation, properties }))
        .sort((a, b) => a.id.localeCompare(b.id));
    expect(strip(await elementsOf(copy))).toEqual(strip(await elementsOf(org)));
    const rels = async (o: OrgFixture) =>
      ((await o.viewer.get("/api/relationships")).body as Record<string, unknown>[])
        .map(({ id, type, name, source, target, is_directed, properties }) => ({
          id,
          type,
          name,
          source,
          target,
          is_directed,
          properties,
        }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(await rels(copy)).toEqual(await rels(org));
    expect((await exported(copy)).files).toEqual(files);
  });
});
