import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import { renderViewSvg } from "../../src/render/render-view.ts";
import type { IconResolver, RenderConnection, RenderInput, RenderNode } from "../../src/render/types.ts";
import { largeView } from "./perf-view.ts";
import { sampleView } from "./sample-view.ts";
import { all, type El, hasClass, parseSvg, textOf } from "./svg-tree.ts";

const HOSTILE = `<script>alert(1)</script> & "double" 'single' ]]> <!-- -->`;

const node = (
  id: string,
  type: string,
  name: string,
  x: number,
  y: number,
  extra: Partial<RenderNode> = {},
): RenderNode => ({
  id,
  kind: "element",
  x,
  y,
  w: 120,
  h: 55,
  element: { type, name },
  ...extra,
});

const rel = (
  id: string,
  type: string,
  sourceId: string,
  targetId: string,
  extra: Partial<RenderConnection> = {},
): RenderConnection => ({
  id,
  kind: "relationship",
  sourceId,
  targetId,
  relationship: { type },
  ...extra,
});

const view = (nodes: RenderNode[], connections: RenderConnection[] = []): RenderInput => ({
  view: { name: "v" },
  nodes,
  connections,
});

const nodeGroups = (root: El) => all(root, hasClass("node"));
const nodeGroup = (root: El, id: string) => nodeGroups(root).find((g) => g.attrs["data-id"] === id)!;
const shapeOf = (root: El, id: string) => all(nodeGroup(root, id), hasClass("shape"))[0];
const connection = (root: El, id: string) =>
  all(root, (e) => e.name === "path" && hasClass("connection")(e)).find((p) => p.attrs["data-id"] === id)!;
const markerIds = (root: El) => new Set(all(root, (e) => e.name === "marker").map((m) => m.attrs.id));
const refId = (url: string | undefined) => url?.match(/^url\(#(.+)\)$/)?.[1];

describe("renderViewSvg: document", () => {
  test("a layered view is a well-formed standalone SVG with size and viewBox", () => {
    const svg = renderViewSvg(sampleView());
    expect(svg.startsWith("<svg ")).toBe(true);
    const root = parseSvg(svg);
    expect(root.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
    const [vx, vy, vw, vh] = must(root.attrs.viewBox, "the viewBox").split(" ").map(Number);
    expect(Number(root.attrs.width)).toBe(vw);
    expect(Number(root.attrs.height)).toBe(vh);
    // The drawing's extent: every node inside the viewBox.
    for (const n of sampleView().nodes) {
      expect(n.x).toBeGreaterThanOrEqual(must(vx, "vx"));
      expect(n.y).toBeGreaterThanOrEqual(must(vy, "vy"));
      expect(n.x + n.w).toBeLessThanOrEqual(must(vx, "vx") + must(vw, "vw"));
      expect(n.y + n.h).toBeLessThanOrEqual(must(vy, "vy") + must(vh, "vh"));
    }
  });

  test("one g.node with exactly one .shape per node, one path.connection per connection", () => {
    const input = sampleView();
    const root = parseSvg(renderViewSvg(input));
    const groups = nodeGroups(root);
    expect(groups.map((g) => g.attrs["data-id"]).sort()).toEqual(input.nodes.map((n) => n.id).sort());
    for (const g of groups) expect(all(g, hasClass("shape"))).toHaveLength(1);
    expect(all(root, hasClass("shape"))).toHaveLength(input.nodes.length);
    const paths = all(root, (e) => e.name === "path" && hasClass("connection")(e));
    expect(paths.map((p) => p.attrs["data-id"]).sort()).toEqual(input.connections.map((c) => c.id).sort());
  });

  test("an empty view is a small valid SVG", () => {
    const root = parseSvg(renderViewSvg({ view: { name: "Empty" }, nodes: [], connections: [] }));
    expect(Number(root.attrs.width)).toBeGreaterThan(0);
    expect(Number(root.attrs.height)).toBeGreaterThan(0);
    expect(root.attrs.viewBox?.split(" ")).toHaveLength(4);
    expect(nodeGroups(root)).toHaveLength(0);
  });

  test("parents are drawn before their children, whatever the input order", () => {
    const root = parseSvg(
      renderViewSvg(
        view([
          node("child", "ApplicationFunction", "Child", 20, 40, { parentId: "parent" }),
          node("parent", "ApplicationComponent", "Parent", 0, 0, { w: 300, h: 150 }),
        ]),
      ),
    );
    expect(nodeGroups(root).map((g) => g.attrs["data-id"])).toEqual(["parent", "child"]);
  });

  test("child positions are absolute by default, and can be declared relative", () => {
    const nodes = [
      node("p", "Node", "Parent", 100, 100, { w: 300, h: 200 }),
      node("c", "SystemSoftware", "Child", 20, 40, { parentId: "p" }),
    ];
    const abs = parseSvg(renderViewSvg(view(nodes)));
    const rel = parseSvg(renderViewSvg({ ...view(nodes), coordinates: "relative" }));
    expect(shapeOf(abs, "c")?.attrs.d?.startsWith("M20 40")).toBe(true);
    expect(shapeOf(rel, "c")?.attrs.d?.startsWith("M120 140")).toBe(true);
  });

  test("odd data does not break rendering", () => {
    const svg = renderViewSvg(
      view(
        [
          node("a", "NoSuchType", "Unknown type", 0, 0),
          { id: "b", kind: "element", x: Number.NaN, y: 0, w: -5, h: 0, element: null },
          { id: "c", kind: "mystery", x: 10, y: 10, w: 50, h: 50, label: "?" },
          node("d", "BusinessActor", "Own parent", 200, 0, { parentId: "d" }),
          node("e", "BusinessActor", "Cycle 1", 400, 0, { parentId: "f" }),
          node("f", "BusinessActor", "Cycle 2", 600, 0, { parentId: "e" }),
        ],
        [
          rel("dangling", "Serving", "a", "nowhere"),
          rel("loop1", "Association", "a", "loop2"),
          rel("loop2", "Association", "loop1", "a"),
          rel("self", "Flow", "d", "d"),
          rel("bogus", "NoSuchRelationship", "a", "d", {
            bendpoints: [
              { x: Number.NaN, y: 1 },
              { x: 5, y: 5 },
            ],
          }),
        ],
      ),
    );
    const root = parseSvg(svg);
    expect(nodeGroups(root)).toHaveLength(6);
    for (const g of nodeGroups(root)) expect(all(g, hasClass("shape"))).toHaveLength(1);
    // An end that does not exist (or a cycle of connections) has no geometry: that connection is left out.
    expect(connection(root, "dangling")).toBeUndefined();
    expect(connection(root, "self")?.attrs.d?.split("L").length).toBeGreaterThan(2);
    expect(connection(root, "bogus")).toBeDefined();
  });
});

describe("renderViewSvg: escaping", () => {
  const hostileView = (): RenderInput => ({
    view: { name: HOSTILE, documentation: HOSTILE },
    nodes: [
      node(`id"><script>x</script>`, "BusinessActor", HOSTILE, 0, 0, {
        w: 400,
        h: 200,
        style: { font: { name: `Arial"; } </style><script>`, size: 9 } },
      }),
      { id: "label", kind: "label", x: 200, y: 0, w: 200, h: 50, label: HOSTILE },
      { id: "container", kind: "container", x: 0, y: 100, w: 300, h: 100, label: HOSTILE },
      node("ctl", "BusinessRole", "bell\u0007 nul\u0000 lone\ud800 surrogate \ufffe", 420, 0),
    ],
    connections: [
      rel("c", "Flow", `id"><script>x</script>`, "label", { label: HOSTILE }),
      rel("c2", "Influence", "label", "ctl", {
        relationship: { type: "Influence", name: HOSTILE, influenceStrength: "<b>++</b>" },
      }),
    ],
  });

  test("names with markup stay text: no script element, the text reads back unchanged", () => {
    const svg = renderViewSvg(hostileView());
    const root = parseSvg(svg);
    expect(all(root, (e) => e.name.toLowerCase() === "script")).toHaveLength(0);
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(textOf(must(all(root, (e) => e.name === "title")[0], "the <title>"))).toBe(HOSTILE);
    // Wrapped text rejoins to the original name (spaces become line breaks).
    const words = (s: string) => s.split(/\s+/).filter(Boolean).join("");
    const label = all(must(nodeGroups(root)[0], "the first node"), (e) => e.name === "text")[0];
    expect(words(textOf(must(label, "label")))).toBe(words(HOSTILE));
    expect(nodeGroups(root)[0]?.attrs["data-id"]).toBe(`id"><script>x</script>`);
  });

  test("characters XML cannot carry are dropped", () => {
    const root = parseSvg(renderViewSvg(hostileView()));
    const text = textOf(must(all(nodeGroup(root, "ctl"), (e) => e.name === "text")[0], "the text of ctl"));
    expect(text).toContain("bell");
    const codes = Array.from(text, (ch) => ch.charCodeAt(0));
    for (const bad of [0x0, 0x7, 0xd800, 0xfffe]) expect(codes).not.toContain(bad);
  });
});

describe("renderViewSvg: notation and styles", () => {
  test("layer colours by default, the model's styles when set", () => {
    const root = parseSvg(
      renderViewSvg(
        view([
          node("plain", "BusinessActor", "Plain", 0, 0),
          node("app", "ApplicationComponent", "App", 200, 0),
          node("styled", "BusinessActor", "Styled", 400, 0, {
            style: {
              fill: { r: 255, g: 0, b: 0, a: 50 },
              line: { r: 0, g: 0, b: 255 },
              lineWidth: 3,
              font: { name: "Georgia", size: 12, style: "bold italic", color: { r: 0, g: 128, b: 0 } },
            },
          }),
        ]),
      ),
    );
    expect(shapeOf(root, "plain")?.attrs.fill).toBe("#ffffb5");
    expect(shapeOf(root, "app")?.attrs.fill).toBe("#b5ffff");
    const styled = shapeOf(root, "styled");
    expect(styled?.attrs).toMatchObject({
      fill: "#ff0000",
      "fill-opacity": "0.5",
      stroke: "#0000ff",
      "stroke-width": "3",
    });
    const text = all(nodeGroup(root, "styled"), (e) => e.name === "text")[0];
    expect(text?.attrs).toMatchObject({
      fill: "#008000",
      "font-weight": "bold",
      "font-style": "italic",
      "font-size": "16",
    });
    expect(text?.attrs["font-family"]).toContain("Georgia");
  });

  test("relationship ends and line styles", () => {
    const nodes = [node("a", "ApplicationComponent", "A", 0, 0), node("b", "DataObject", "B", 300, 0)];
    const conns = [
      rel("comp", "Composition", "a", "b"),
      rel("aggr", "Aggregation", "a", "b"),
      rel("assign", "Assignment", "a", "b"),
      rel("real", "Realization", "a", "b"),
      rel("serv", "Serving", "a", "b"),
      rel("read", "Access", "a", "b", { relationship: { type: "Access", accessType: "Read" } }),
      rel("write", "Access", "a", "b", { relationship: { type: "Access", accessType: "Write" } }),
      rel("access", "Access", "a", "b"),
      rel("infl", "Influence", "a", "b"),
      rel("trig", "Triggering", "a", "b"),
      rel("flow", "Flow", "a", "b"),
      rel("spec", "Specialization", "a", "b"),
      rel("assoc", "Association", "a", "b"),
      rel("directed", "Association", "a", "b", { relationship: { type: "Association", isDirected: true } }),
      { id: "line", kind: "line", sourceId: "a", targetId: "b", style: { line: { r: 255, g: 0, b: 0 } } },
    ];
    const root = parseSvg(renderViewSvg(view(nodes, conns)));
    const defined = markerIds(root);
    const ends = (id: string) => {
      const p = connection(root, id);
      for (const m of [p.attrs["marker-start"], p.attrs["marker-end"]])
        if (m) expect(defined.has(refId(m)!)).toBe(true);
      const kind = (m?: string) => refId(m)?.match(/m-([A-Za-z]+)-/)?.[1] ?? null;
      return {
        start: kind(p.attrs["marker-start"]),
        end: kind(p.attrs["marker-end"]),
        dash: p.attrs["stroke-dasharray"] ?? null,
      };
    };
    expect(ends("comp")).toEqual({ start: "diamondFilled", end: null, dash: null });
    expect(ends("aggr")).toEqual({ start: "diamondHollow", end: null, dash: null });
    expect(ends("assign")).toEqual({ start: "dot", end: "arrowFilled", dash: null });
    expect(ends("real")).toMatchObject({ start: null, end: "triangleHollow" });
    expect(ends("real").dash).not.toBeNull();
    expect(ends("serv")).toEqual({ start: null, end: "arrowOpen", dash: null });
    expect(ends("read")).toMatchObject({ start: "arrowSmall", end: null });
    expect(ends("write")).toMatchObject({ start: null, end: "arrowSmall" });
    expect(ends("access")).toMatchObject({ start: null, end: null });
    expect(ends("access").dash).not.toBeNull();
    expect(ends("infl").end).toBe("arrowOpen");
    expect(ends("infl").dash).not.toBeNull();
    expect(ends("trig")).toEqual({ start: null, end: "arrowFilled", dash: null });
    expect(ends("flow").end).toBe("arrowFilled");
    expect(ends("flow").dash).not.toBeNull();
    expect(ends("spec")).toEqual({ start: null, end: "triangleHollow", dash: null });
    expect(ends("assoc")).toEqual({ start: null, end: null, dash: null });
    expect(ends("directed").end).toBe("halfArrow");
    expect(connection(root, "line").attrs.stroke).toBe("#ff0000");
  });

  test("a coloured line gets markers in its colour", () => {
    const root = parseSvg(
      renderViewSvg(
        view(
          [node("a", "Node", "A", 0, 0), node("b", "Node", "B", 300, 0)],
          [rel("c", "Triggering", "a", "b", { style: { line: { r: 0, g: 128, b: 0 }, lineWidth: 2 } })],
        ),
      ),
    );
    const p = connection(root, "c");
    expect(p.attrs).toMatchObject({ stroke: "#008000", "stroke-width": "2" });
    const marker = all(root, (e) => e.name === "marker" && e.attrs.id === refId(p.attrs["marker-end"]))[0];
    expect(all(must(marker, "marker"), (e) => e.name === "path")[0]?.attrs).toMatchObject({
      fill: "#008000",
      stroke: "#008000",
    });
  });

  test("lines run centre to centre, clipped at the borders, through bendpoints", () => {
    const root = parseSvg(
      renderViewSvg(
        view(
          [
            node("a", "BusinessActor", "A", 0, 0),
            node("b", "BusinessRole", "B", 300, 0),
            node("c", "BusinessRole", "C", 300, 200),
          ],
          [rel("ab", "Assignment", "a", "b"), rel("ac", "Serving", "a", "c", { bendpoints: [{ x: 60, y: 227.5 }] })],
        ),
      ),
    );
    expect(connection(root, "ab").attrs.d).toBe("M120 27.5L300 27.5");
    expect(connection(root, "ac").attrs.d).toBe("M60 55L60 227.5L300 227.5");
  });

  test("a connection may end on another connection (at its middle)", () => {
    const root = parseSvg(
      renderViewSvg(
        view(
          [node("a", "Goal", "A", 0, 0), node("b", "Goal", "B", 300, 0), node("s", "Stakeholder", "S", 150, 200)],
          [rel("ab", "Influence", "a", "b"), rel("s-ab", "Association", "s", "ab")],
        ),
      ),
    );
    expect(connection(root, "s-ab")?.attrs.d?.endsWith("L210 27.5")).toBe(true);
  });

  test("junctions are circles (And filled, Or hollow); groupings dashed; labels and containers", () => {
    const root = parseSvg(
      renderViewSvg(
        view([
          node("and", "AndJunction", "", 0, 0, { w: 14, h: 14 }),
          node("or", "OrJunction", "", 50, 0, { w: 14, h: 14 }),
          node("grp", "Grouping", "Group", 100, 0, { w: 300, h: 200 }),
          { id: "note", kind: "label", x: 0, y: 300, w: 200, h: 40, label: "Just text" },
          {
            id: "boxed",
            kind: "label",
            x: 0,
            y: 400,
            w: 200,
            h: 40,
            label: "Boxed",
            style: { line: { r: 1, g: 2, b: 3 } },
          },
          { id: "box", kind: "container", x: 300, y: 300, w: 200, h: 100, label: "Header" },
        ]),
      ),
    );
    expect(shapeOf(root, "and")?.attrs.fill).toBe("#1a1a1a");
    expect(shapeOf(root, "or")?.attrs.fill).toBe("#ffffff");
    expect(shapeOf(root, "and")?.attrs.d).toContain("A7 7");
    expect(shapeOf(root, "grp")?.attrs["stroke-dasharray"]).toBeDefined();
    expect(shapeOf(root, "note")?.attrs).toMatchObject({ fill: "none", stroke: "none" });
    expect(shapeOf(root, "boxed")?.attrs.stroke).toBe("#010203");
    expect(textOf(nodeGroup(root, "box"))).toBe("Header");
  });

  test("text wraps inside the shape, and ends in an ellipsis when it overflows", () => {
    const long = "Customer relationship management platform for the whole enterprise including subsidiaries abroad";
    const root = parseSvg(
      renderViewSvg(
        view([
          node("long", "ApplicationComponent", long, 0, 0),
          node("word", "ApplicationComponent", "Supercalifragilisticexpialidocious", 200, 0),
        ]),
      ),
    );
    const tspans = all(nodeGroup(root, "long"), (e) => e.name === "tspan");
    expect(tspans.length).toBeGreaterThan(1);
    for (const t of tspans) {
      const y = Number(t.attrs.y);
      expect(y).toBeGreaterThan(0);
      expect(y).toBeLessThan(55);
    }
    expect(textOf(must(tspans.at(-1), "the last line")).endsWith("\u2026")).toBe(true);
    const pieces = all(nodeGroup(root, "word"), (e) => e.name === "tspan").map(textOf);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe("Supercalifragilisticexpialidocious");
  });
});

describe("renderViewSvg: icons", () => {
  const iconNode = (iconPack?: string) =>
    view([
      {
        id: "n",
        kind: "element",
        x: 0,
        y: 0,
        w: 120,
        h: 55,
        element: { type: "ApplicationComponent", name: "N", iconPack },
      },
    ]);
  const icons = (root: El) => all(nodeGroup(root, "n"), hasClass("icon"));
  const typeIcon = (root: El) => {
    const [icon] = icons(root);
    expect(icon?.name).toBe("use");
    const id = must(icon, "the icon <use>").attrs.href?.slice(1);
    expect(all(root, (e) => e.name === "g" && e.attrs.id === id)).toHaveLength(1);
    return id;
  };

  test("the type icon by default", () => {
    expect(typeIcon(parseSvg(renderViewSvg(iconNode())))).toBe("ams-i-ApplicationComponent");
  });

  test("a resolved plugin icon replaces it: an image by URL, or an inline SVG", () => {
    const resolveIcon: IconResolver = (v) =>
      v === "by-url"
        ? { href: "/api/plugins/pack/icons/by-url?x=1&y=2" }
        : v === "inline"
          ? {
              svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32"><path d="M0 0H32V32Z"/></svg>',
            }
          : undefined;
    const byUrl = icons(parseSvg(renderViewSvg(iconNode("by-url"), { resolveIcon })));
    expect(byUrl).toHaveLength(1);
    expect(byUrl[0]).toMatchObject({ name: "image", attrs: { href: "/api/plugins/pack/icons/by-url?x=1&y=2" } });
    const inline = icons(parseSvg(renderViewSvg(iconNode("inline"), { resolveIcon })));
    expect(inline).toHaveLength(1);
    expect(inline[0]?.name).toBe("svg");
    expect(inline[0]?.attrs).toMatchObject({ viewBox: "0 0 32 32", width: "16", height: "16" });
    expect(all(must(inline[0], "the inline icon"), (e) => e.name === "path")).toHaveLength(1);
  });

  test("an unresolved value, a throwing resolver or an unsafe result shows the type icon", () => {
    const results: IconResolver[] = [
      () => undefined,
      () => {
        throw new Error("plugin store down");
      },
      () => ({ href: "javascript:alert(1)" }),
      () => ({ href: "//evil.example/x.svg" }),
      () => ({ href: "http://insecure.example/x.svg" }),
      () => ({ href: "data:image/svg+xml,<svg/>" }),
      () => ({ svg: "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>" }),
      () => ({ svg: "<svg><path d='M0 0'></svg>" }),
      () => ({ svg: "not svg at all" }),
      () => null as never,
      () => "a string" as never,
    ];
    for (const resolveIcon of results) {
      const root = parseSvg(renderViewSvg(iconNode("some-slug"), { resolveIcon }));
      expect(icons(root)).toHaveLength(1);
      expect(typeIcon(root)).toBe("ams-i-ApplicationComponent");
    }
  });

  test("an https URL is allowed and escaped", () => {
    const root = parseSvg(
      renderViewSvg(iconNode("x"), { resolveIcon: () => ({ href: 'https://cdn.example/i.svg?a="b"&c=<d>' }) }),
    );
    expect(icons(root)[0]?.attrs.href).toBe('https://cdn.example/i.svg?a="b"&c=<d>');
  });

  test("the resolver is asked once per distinct value", () => {
    let calls = 0;
    const nodes = Array.from({ length: 10 }, (_, i) => ({
      id: `n${i}`,
      kind: "element",
      x: i * 130,
      y: 0,
      w: 120,
      h: 55,
      element: { type: "Node", name: `N${i}`, iconPack: i % 2 ? "odd" : "even" },
    }));
    renderViewSvg(view(nodes), {
      resolveIcon: () => {
        calls++;
        return undefined;
      },
    });
    expect(calls).toBe(2);
  });
});

describe("renderViewSvg: a large view", () => {
  // Its time is measured by `./pnpm bench exchange` (render of the 200-node view beside its floor), not here.
  test("200 nodes and 300 connections: every shape and every connection is drawn", () => {
    const input = largeView(200, 300);
    const resolveIcon: IconResolver = (v) => (v === "icon-1" ? { href: "/api/plugins/p/icons/i" } : undefined);
    const root = parseSvg(renderViewSvg(input, { resolveIcon }));
    expect(all(root, hasClass("shape"))).toHaveLength(200);
    expect(all(root, (e) => e.name === "path" && hasClass("connection")(e))).toHaveLength(300);
  });
});
