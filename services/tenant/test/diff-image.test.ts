import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

/**
 * GET /api/views/:id/diff-image on real PostgreSQL: a view's changes since a version drawn by the server's renderer,
 * added objects green, removed ones red and ghosted, changed and moved ones amber, with a legend; and the refusals.
 */
let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;

/** The objects of the scenario, and the version "Before lunch" taken before the changes. */
const ids = {
  view: "",
  version: "",
  crm: { element: "", node: "" },
  billing: { element: "", node: "" },
  ledger: { element: "", node: "", relationship: "", connection: "" },
  portal: { element: "", node: "", relationship: "", connection: "" },
  serving: { relationship: "", connection: "" },
};

/** The one path of the mark layer with this class and data-id, or undefined. */
const markOf = (svg: string, cls: string, id: string) =>
  new RegExp(`<path class="${cls}" data-id="${id}"[^>]*/>`).exec(svg)?.[0];
const marksOf = (svg: string, cls: string) =>
  [...svg.matchAll(new RegExp(`<path class="${cls}" data-id="([^"]+)"`, "g"))].map((m) => m[1]).sort();

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  other = await h.organization();
  const ed = org.editor;
  const element = async (name: string) =>
    (await ed.post("/api/elements", { name, type: "ApplicationComponent" })).body.id as string;
  const node = async (element_id: string, x: number, y: number) =>
    (await ed.post(`/api/views/${ids.view}/nodes`, { element_id, x, y, w: 120, h: 55 })).body.id as string;
  const relate = async (source: string, target: string) =>
    (await ed.post("/api/relationships", { type: "Serving", source, target })).body.id as string;
  const connect = async (source: string, target: string, relationship_id: string) =>
    (await ed.post(`/api/views/${ids.view}/connections`, { source, target, relationship_id })).body.id as string;

  ids.view = (await ed.post("/api/views", { name: "Landscape" })).body.id;
  ids.crm.element = await element("CRM");
  ids.billing.element = await element("Billing");
  ids.ledger.element = await element("Ledger <old> & 'gone'");
  ids.crm.node = await node(ids.crm.element, 20, 20);
  ids.billing.node = await node(ids.billing.element, 260, 20);
  ids.ledger.node = await node(ids.ledger.element, 500, 20);
  ids.serving.relationship = await relate(ids.crm.element, ids.billing.element);
  ids.serving.connection = await connect(ids.crm.node, ids.billing.node, ids.serving.relationship);
  ids.ledger.relationship = await relate(ids.billing.element, ids.ledger.element);
  ids.ledger.connection = await connect(ids.billing.node, ids.ledger.node, ids.ledger.relationship);
  const version = await ed.post(`/api/workspaces/${org.workspaceId}/versions`, {
    name: `Before lunch <script>alert("x")</script>`,
  });
  expect(version.status).toBe(201);
  ids.version = version.body.id;

  // After the version: a rename, a move, a deletion (its relationship and connection go with it), an addition.
  expect((await ed.put(`/api/elements/${ids.crm.element}`, { name: "CRM system" })).status).toBe(200);
  expect((await ed.put(`/api/views/${ids.view}/nodes/${ids.billing.node}`, { x: 260, y: 200 })).status).toBe(200);
  expect((await ed.delete(`/api/elements/${ids.ledger.element}`)).status).toBe(204);
  ids.portal.element = await element("Portal");
  ids.portal.node = await node(ids.portal.element, 20, 200);
  ids.portal.relationship = await relate(ids.portal.element, ids.crm.element);
  ids.portal.connection = await connect(ids.portal.node, ids.crm.node, ids.portal.relationship);
}, 60_000);
afterAll(async () => h?.close());

describe("a view's changes as a picture", () => {
  test("since a version: added green, removed red and ghosted, renamed and moved amber, and a legend", async () => {
    const res = await org.viewer.get(`/api/views/${ids.view}/diff-image?from=${ids.version}&to=current`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const svg = res.text;
    expect(marksOf(svg, "diff-mark diff-added")).toEqual([ids.portal.connection, ids.portal.node].sort());
    expect(marksOf(svg, "diff-mark diff-removed")).toEqual([ids.ledger.connection, ids.ledger.node].sort());
    expect(marksOf(svg, "diff-mark diff-changed")).toEqual([ids.billing.node, ids.crm.node].sort());
    expect(markOf(svg, "diff-mark diff-added", ids.portal.node)).toContain('stroke="#1a7f37"');
    expect(markOf(svg, "diff-mark diff-removed", ids.ledger.node)).toContain('stroke="#cf222e"');
    expect(markOf(svg, "diff-mark diff-changed", ids.crm.node)).toContain('stroke="#bf8700"');
    // Only the moved node shows where it was (the renamed one stayed put).
    expect(marksOf(svg, "diff-former")).toEqual([ids.billing.node]);
    expect(markOf(svg, "diff-former", ids.billing.node)).toMatch(/d="M260 20/);
    expect(markOf(svg, "diff-move", ids.billing.node)).toContain('d="M320 75L320 200"'); // outline to outline
    // The removed element is drawn as it was, ghosted, its name escaped.
    const ghost = new RegExp(
      `<g class="diff-ghost" data-id="${ids.ledger.node}" opacity="0.35"><g class="node" data-id="${ids.ledger.node}"`,
    );
    expect(svg).toMatch(ghost);
    expect(svg).toContain(">Ledger &lt;old&gt; &amp;</tspan>");
    // The view as it is now: the new name, not the old one.
    expect(svg).toContain(">CRM system<");
    expect(svg).toContain('<g class="legend"');
    expect(svg).toContain(">Added (2)<");
    expect(svg).toContain(">Removed (2)<");
    expect(svg).toContain(">Changed or moved (2)<");
    expect(svg).toContain(">Where a moved node was<");
    // The version's name is the user's text: escaped in the caption and the title, never markup.
    expect(svg).not.toContain("<script");
    expect(svg).toMatch(
      /<text class="legend-caption"[^>]*>Changes from “Before lunch &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;” \(revision \d+\) to current \(revision \d+\)<\/text>/,
    );
  });

  test("the other way round, what was added is removed; a point against itself marks nothing", async () => {
    const back = await org.viewer.get(`/api/views/${ids.view}/diff-image?from=current&to=${ids.version}`);
    expect(back.status).toBe(200);
    expect(marksOf(back.text, "diff-mark diff-removed")).toEqual([ids.portal.connection, ids.portal.node].sort());
    expect(marksOf(back.text, "diff-mark diff-added")).toEqual([ids.ledger.connection, ids.ledger.node].sort());
    expect(back.text).toContain(">CRM<"); // drawn at the version: the old name
    const same = await org.viewer.get(`/api/views/${ids.view}/diff-image?from=current`);
    expect(same.status).toBe(200);
    expect(same.text).toContain('<g class="diff-marks" fill="none"></g>');
    expect(same.text).toContain(">Added (0)<");
  });

  test("by revision number, and a view that was created after `from` is all green", async () => {
    const res = await org.viewer.get(`/api/views/${ids.view}/diff-image?from=0`);
    expect(res.status).toBe(200);
    expect(marksOf(res.text, "diff-mark diff-added")).toHaveLength(5); // three nodes, two connections
    expect(res.text).toContain("Changes from revision 0 to current");
  });

  test("as PNG: a picture that decodes, with the marks' green, red and amber in it", async () => {
    const token = await h.tokens.sign(
      { ...org.viewer.caller, username: "v", platformAdmin: false, apiTokenId: null },
      "tenant",
    );
    const res = await h.app.request(`/api/views/${ids.view}/diff-image?format=png&from=${ids.version}&scale=2`, {
      headers: { "x-ams-service-token": token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
    expect(png.width).toBeGreaterThan(600);
    const count = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < png.data.length; i += 4)
        if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) n++;
      return n;
    };
    expect(count("#1a7f37")).toBeGreaterThan(100);
    expect(count("#cf222e")).toBeGreaterThan(100);
    expect(count("#bf8700")).toBeGreaterThan(100);
  });

  test("refusals: bad format, scale on SVG, revision beyond current, missing from, unknown view or version", async () => {
    const v = org.viewer;
    const base = `/api/views/${ids.view}/diff-image`;
    const gif = await v.get(`${base}?format=gif&from=0`);
    expect(gif.status).toBe(422);
    expect(gif.body.detail).toBe("format: 'gif' is not an image format of this service; use png or svg");
    expect((await v.get(`${base}?from=0&scale=2`)).body.errors[0].path).toBe("scale");
    const beyond = await v.get(`${base}?from=0&to=999999`);
    expect(beyond.status).toBe(422);
    expect(beyond.body.detail).toMatch(/^to: revision 999999 is beyond the workspace's current revision \d+$/);
    expect((await v.get(base)).status).toBe(422);
    expect((await v.get(`${base}?from=yesterday`)).status).toBe(422);
    const unknown = await v.get(`/api/views/no-such-view/diff-image?from=0`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^View 'no-such-view' not found at revision 0 or at revision \d+$/);
  });

  test("another organization's view or version is not found", async () => {
    expect((await other.owner.get(`/api/views/${ids.view}/diff-image?from=0`)).status).toBe(404);
    const theirs = (await other.editor.post(`/api/workspaces/${other.workspaceId}/versions`, { name: "Theirs" })).body;
    expect((await org.viewer.get(`/api/views/${ids.view}/diff-image?from=${theirs.id}`)).status).toBe(404);
  });
});
