import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import {
  ACCESS_NOTATION,
  borderPoint,
  ELEMENT_NOTATION,
  ELEMENT_TYPES,
  elementNotation,
  ICON_BOX,
  LAYER_COLORS,
  LAYERS,
  MARKERS,
  PALETTE,
  RELATIONSHIP_NOTATION,
  RELATIONSHIP_TYPES,
  relationshipNotation,
  type ShapeKind,
  shapeOutline,
} from "../src/index.ts";

// ------------------------------------------------------------------ a small SVG path-data validator

const ARITY: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };
const TOKEN = /\s*(?:([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?/y;

type Segment = { cmd: string; args: number[] };

/** Parses SVG path data (SVG 1.1 grammar) or throws with the position of the first error. */
function parsePathData(d: string): Segment[] {
  const segments: Segment[] = [];
  let cmd = "";
  let pending: number[] = [];
  TOKEN.lastIndex = 0;
  const flush = () => {
    const arity = must(ARITY[cmd.toLowerCase()], `the arity of path command ${cmd}`);
    if (arity === 0) {
      if (pending.length) throw new Error(`Z takes no arguments in ${d}`);
      segments.push({ cmd, args: [] });
      return;
    }
    if (pending.length === 0 || pending.length % arity !== 0) {
      throw new Error(`${cmd} needs a multiple of ${arity} numbers, got ${pending.length} in ${d}`);
    }
    for (let i = 0; i < pending.length; i += arity) {
      const args = pending.slice(i, i + arity);
      if (cmd.toLowerCase() === "a") {
        if (must(args[0], "the arc rx") < 0 || must(args[1], "the arc ry") < 0)
          throw new Error(`negative arc radius in ${d}`);
        if ((args[3] !== 0 && args[3] !== 1) || (args[4] !== 0 && args[4] !== 1))
          throw new Error(`bad arc flag in ${d}`);
      }
      segments.push({ cmd, args });
    }
  };
  while (TOKEN.lastIndex < d.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(d);
    if (!m) throw new Error(`unexpected "${d.slice(at, at + 10)}" at ${at} in ${d}`);
    if (m[1]) {
      if (cmd) flush();
      else if (m[1] !== "M" && m[1] !== "m") throw new Error(`path data must start with a moveto: ${d}`);
      cmd = m[1];
      pending = [];
    } else {
      if (!cmd) throw new Error(`number before the first command in ${d}`);
      pending.push(Number(m[2]));
    }
  }
  if (!cmd) throw new Error("empty path data");
  flush();
  return segments;
}

/** End points of absolute segments (the icons use absolute commands only). */
function absolutePoints(segments: Segment[]): [number, number][] {
  const points: [number, number][] = [];
  for (const { cmd, args } of segments) {
    // parsePathData checked each command's arity, so these pairs exist.
    const at = (i: number): [number, number] => [
      must(args[i], `${cmd} argument ${i}`),
      must(args[i + 1], `${cmd} argument ${i + 1}`),
    ];
    if (cmd === "M" || cmd === "L" || cmd === "T") points.push(at(0));
    else if (cmd === "C") points.push(at(0), at(2), at(4));
    else if (cmd === "Q" || cmd === "S") points.push(at(0), at(2));
    else if (cmd === "A") points.push(at(5));
  }
  return points;
}

describe("path-data validator", () => {
  test("accepts valid and rejects invalid path data", () => {
    expect(parsePathData("M1 2L3 4ZM5 6h1v1z").length).toBe(7);
    expect(parsePathData("M0 0A3 3 0 1 1 -6 0").length).toBe(2);
    expect(() => parsePathData("L1 2")).toThrow();
    expect(() => parsePathData("M1 2L3")).toThrow();
    expect(() => parsePathData("M1 2X3 4")).toThrow();
    expect(() => parsePathData("M0 0A3 3 0 2 1 5 5")).toThrow();
    expect(() => parsePathData("")).toThrow();
  });
});

// ------------------------------------------------------------------ element notation

const SHAPES: ShapeKind[] = ["rect", "rounded", "pill", "event", "cut", "wave", "box3d", "tab", "junction"];

/** Which palette entries a layer's types may use: conventions differ from the layer for composites and migration. */
const PALETTES_OF_LAYER: Record<string, string[]> = {
  Business: ["business"],
  Application: ["application"],
  Technology: ["technology"],
  Physical: ["physical"],
  Motivation: ["motivation"],
  Strategy: ["strategy"],
  Implementation: ["implementation", "migration"],
  Composite: ["location", "grouping", "junction", "other"],
};

describe("element notation", () => {
  test("the metamodel lists the 62 exchange-format element types", () => {
    expect(ELEMENT_TYPES.length).toBe(62);
  });

  test.each(ELEMENT_TYPES.map((t) => [t.name, t.layer] as const))("%s has a shape, colour and icon", (name, layer) => {
    const n = elementNotation(name);
    expect(Object.hasOwn(ELEMENT_NOTATION, name)).toBe(true);
    expect(SHAPES).toContain(n.shape);
    expect(PALETTES_OF_LAYER[layer]).toContain(n.palette);
    expect(PALETTE[n.palette]).toMatch(/^#[0-9a-f]{6}$/);
    expect(n.icon.length).toBeGreaterThan(0);
    for (const path of n.icon) {
      const points = absolutePoints(parsePathData(path.d));
      expect(points.length).toBeGreaterThan(0);
      for (const [x, y] of points) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(ICON_BOX);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(ICON_BOX);
      }
    }
  });

  test("follows the ArchiMate categories", () => {
    expect(elementNotation("BusinessActor").shape).toBe("rect");
    expect(elementNotation("BusinessProcess").shape).toBe("rounded");
    expect(elementNotation("ApplicationService").shape).toBe("pill");
    expect(elementNotation("TechnologyEvent").shape).toBe("event");
    expect(elementNotation("Goal").shape).toBe("cut");
    expect(elementNotation("Grouping").shape).toBe("tab");
    expect(elementNotation("OrJunction")).toMatchObject({ shape: "junction", hollow: true });
    expect(elementNotation("AndJunction").hollow).toBeUndefined();
  });

  test("uses the conventional layer colours", () => {
    expect(PALETTE[elementNotation("BusinessActor").palette]).toBe("#ffffb5");
    expect(PALETTE[elementNotation("DataObject").palette]).toBe("#b5ffff");
    expect(PALETTE[elementNotation("Node").palette]).toBe("#c9e7b7");
    expect(PALETTE[elementNotation("Driver").palette]).toBe("#ccccff");
    expect(PALETTE[elementNotation("Capability").palette]).toBe("#f5deaa");
    expect(PALETTE[elementNotation("WorkPackage").palette]).toBe("#ffe0e0");
    expect(PALETTE[elementNotation("Plateau").palette]).toBe("#e0ffe0");
    for (const layer of LAYERS) expect(LAYER_COLORS[layer]).toMatch(/^#[0-9a-f]{6}$/);
  });

  test("an unknown type gets a plain box, not an error", () => {
    expect(elementNotation("NoSuchType")).toMatchObject({ shape: "rect", icon: [] });
    expect(elementNotation("__proto__")).toMatchObject({ shape: "rect" });
  });

  test.each(SHAPES)("the %s outline is valid path data at any size", (kind) => {
    for (const [w, h] of [
      [120, 55],
      [15, 15],
      [1, 1],
      [400, 20],
    ] as [number, number][]) {
      const points = absolutePoints(parsePathData(shapeOutline(kind, 10, 20, w, h)));
      for (const [x, y] of points) {
        expect(x).toBeGreaterThanOrEqual(10);
        expect(x).toBeLessThanOrEqual(10 + w + 0.05);
        expect(y).toBeGreaterThanOrEqual(20);
        expect(y).toBeLessThanOrEqual(20 + h + 0.05);
      }
    }
  });

  test("connections stop at the drawn outline", () => {
    // A rectangle: the right edge.
    expect(borderPoint("rect", 0, 0, 100, 50, 500, 25)).toEqual({ x: 100, y: 25 });
    // A junction: on its circle.
    const j = borderPoint("junction", 0, 0, 14, 14, 100, 100);
    expect(Math.hypot(j.x - 7, j.y - 7)).toBeCloseTo(7);
    // A pill: on the round end, inside the bounding box corner.
    const p = borderPoint("pill", 0, 0, 100, 50, 200, 0);
    expect(p.x).toBeLessThan(100);
    expect(Math.hypot((p.x - 75) / 25, (p.y - 25) / 25)).toBeCloseTo(1);
    // An event: straight in from the left, the ray stops in the notch, not at the bounding box.
    expect(borderPoint("event", 0, 0, 120, 60, -500, 30).x).toBeGreaterThan(0);
  });
});

// ------------------------------------------------------------------ relationship notation

describe("relationship notation", () => {
  test.each(RELATIONSHIP_TYPES.map((t) => t.name))("%s has a line style and known end markers", (type) => {
    expect(Object.hasOwn(RELATIONSHIP_NOTATION, type)).toBe(true);
    const n = relationshipNotation(type);
    for (const end of [n.source, n.target]) if (end) expect(Object.hasOwn(MARKERS, end)).toBe(true);
  });

  test("draws the ArchiMate ends", () => {
    expect(relationshipNotation("Composition")).toEqual({ dash: "solid", source: "diamondFilled", target: null });
    expect(relationshipNotation("Aggregation")).toEqual({ dash: "solid", source: "diamondHollow", target: null });
    expect(relationshipNotation("Assignment")).toEqual({ dash: "solid", source: "dot", target: "arrowFilled" });
    expect(relationshipNotation("Realization")).toMatchObject({ target: "triangleHollow" });
    expect(relationshipNotation("Realization").dash).not.toBe("solid");
    expect(relationshipNotation("Serving")).toEqual({ dash: "solid", source: null, target: "arrowOpen" });
    expect(relationshipNotation("Influence")).toEqual({ dash: "dashed", source: null, target: "arrowOpen" });
    expect(relationshipNotation("Triggering")).toEqual({ dash: "solid", source: null, target: "arrowFilled" });
    expect(relationshipNotation("Flow")).toEqual({ dash: "dashed", source: null, target: "arrowFilled" });
    expect(relationshipNotation("Specialization")).toEqual({ dash: "solid", source: null, target: "triangleHollow" });
    expect(relationshipNotation("Association")).toEqual({ dash: "solid", source: null, target: null });
    expect(relationshipNotation("Association", { isDirected: true }).target).toBe("halfArrow");
  });

  test("access arrows follow the access type", () => {
    expect(Object.keys(ACCESS_NOTATION).sort()).toEqual(["Access", "Read", "ReadWrite", "Write"]);
    expect(relationshipNotation("Access")).toMatchObject({ dash: "dotted", source: null, target: null });
    expect(relationshipNotation("Access", { accessType: "Write" })).toMatchObject({
      source: null,
      target: "arrowSmall",
    });
    expect(relationshipNotation("Access", { accessType: "Read" })).toMatchObject({
      source: "arrowSmall",
      target: null,
    });
    expect(relationshipNotation("Access", { accessType: "ReadWrite" })).toMatchObject({
      source: "arrowSmall",
      target: "arrowSmall",
    });
    expect(relationshipNotation("Access", { accessType: "bogus" })).toMatchObject({ source: null, target: null });
  });

  test("marker shapes are valid path data", () => {
    for (const m of Object.values(MARKERS)) {
      for (const [x, y] of absolutePoints(parsePathData(m.d))) {
        expect(x).toBeLessThanOrEqual(0);
        expect(Math.abs(x)).toBeLessThanOrEqual(m.size);
        expect(Math.abs(y)).toBeLessThanOrEqual(m.size);
      }
    }
  });

  test("an unknown relationship type is a plain line", () => {
    expect(relationshipNotation("Bogus")).toEqual({ dash: "solid", source: null, target: null });
  });
});
