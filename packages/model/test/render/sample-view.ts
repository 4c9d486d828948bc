import { must } from "@ams/shared/testing";
import type { RenderConnection, RenderInput, RenderNode } from "../../src/render/types.ts";

/** A hand-built layered view resembling a real one: nesting, junctions, a grouping and every relationship type. */
export function sampleView(): RenderInput {
  const nodes: RenderNode[] = [];
  const el = (
    id: string,
    type: string,
    name: string,
    x: number,
    y: number,
    w = 120,
    h = 55,
    parentId?: string,
    iconPack?: string,
  ) => nodes.push({ id, kind: "element", x, y, w, h, parentId: parentId ?? null, element: { type, name, iconPack } });
  nodes.push({
    id: "title",
    kind: "label",
    x: 20,
    y: 10,
    w: 500,
    h: 30,
    label: "ArchiSurance: claim handling (layered view)",
    style: { font: { size: 12, style: "bold" } },
  });
  // Business
  el("actor", "BusinessActor", "Customer", 20, 60);
  el("role", "BusinessRole", "Insurant", 200, 60);
  el("bsvc", "BusinessService", "Claim Registration Service", 380, 60, 150);
  el("proc", "BusinessProcess", "Handle Claim", 20, 150, 620, 120);
  el("evt", "BusinessEvent", "Damage Occurred", 35, 185, 110, 55, "proc");
  el("reg", "BusinessProcess", "Register", 175, 185, 100, 55, "proc");
  el("acc", "BusinessProcess", "Accept", 305, 185, 100, 55, "proc");
  el("and", "AndJunction", "", 425, 206, 14, 14, "proc");
  el("pay", "BusinessProcess", "Pay", 460, 185, 100, 55, "proc");
  el("obj", "BusinessObject", "Insurance Policy", 700, 150);
  el(
    "contract",
    "Contract",
    "Travel Insurance Contract with an exceptionally long descriptive name that cannot possibly fit",
    700,
    230,
    120,
    45,
  );
  el("hostile", "Product", `<script>alert(1)</script> & "quotes" 'n' stuff`, 560, 60, 140);
  // Application
  el("grp", "Grouping", "Back office", 20, 310, 420, 170);
  el("crm", "ApplicationComponent", "CRM System", 40, 340, 180, 120, "grp");
  el("afn", "ApplicationFunction", "Customer Administration", 55, 385, 150, 55, "crm");
  el("asvc", "ApplicationService", "Customer Administration Service", 250, 340, 170, 55, "grp");
  el("aif", "ApplicationInterface", "Web Portal", 250, 410, 120, 50, "grp");
  el("data", "DataObject", "Customer File Data", 480, 340);
  el("or", "OrJunction", "", 520, 440, 14, 14);
  el("styled", "ApplicationComponent", "Styled (red, bold italic)", 640, 340, 150, 55);
  must(nodes.at(-1), "the last node").style = {
    fill: { r: 255, g: 200, b: 200 },
    line: { r: 200, g: 0, b: 0 },
    lineWidth: 2,
    font: { name: "Georgia", size: 10, style: "bold italic", color: { r: 160, g: 0, b: 0 } },
  };
  el("plug", "ApplicationComponent", "With plugin icon", 640, 420, 150, 55, undefined, "aws-lambda");
  // Technology
  el("node", "Node", "Mainframe", 20, 520, 300, 130);
  el("dbms", "SystemSoftware", "DBMS", 40, 570, 120, 55, "node");
  el("art", "Artifact", "crm.war", 180, 570, 120, 55, "node");
  el("dev", "Device", "Branch PC", 360, 520);
  el("net", "CommunicationNetwork", "LAN", 360, 600);
  el("tsvc", "TechnologyService", "Data Storage", 520, 520, 130);
  // Motivation & other
  el("stake", "Stakeholder", "CFO", 860, 60);
  el("driver", "Driver", "Cost pressure", 1010, 240);
  el("goal", "Goal", "Reduce cost", 860, 240);
  el("req", "Requirement", "Online claims", 860, 330);
  el("loc", "Location", "Amsterdam", 860, 420);
  el("wp", "WorkPackage", "Portal project", 700, 520);
  el("del", "Deliverable", "Portal release", 860, 520);
  nodes.push({ id: "container", kind: "container", x: 680, y: 600, w: 300, h: 70, label: "Notes" });
  nodes.push({
    id: "note",
    kind: "label",
    x: 690,
    y: 625,
    w: 280,
    h: 40,
    label: "A note with a border",
    parentId: "container",
    style: { line: { r: 120, g: 120, b: 120 } },
  });

  const connections: RenderConnection[] = [];
  const rel = (
    id: string,
    type: string,
    s: string,
    t: string,
    extra: Partial<RenderConnection["relationship"] & object> = {},
    bendpoints?: { x: number; y: number }[],
  ) =>
    connections.push({
      id,
      kind: "relationship",
      sourceId: s,
      targetId: t,
      bendpoints,
      relationship: { type, ...extra },
    });
  rel("c1", "Assignment", "actor", "role");
  rel("c2", "Serving", "bsvc", "role");
  rel("c3", "Realization", "proc", "bsvc");
  rel("c4", "Triggering", "evt", "reg");
  rel("c5", "Triggering", "reg", "acc");
  rel("c6", "Triggering", "acc", "and");
  rel("c7", "Flow", "and", "pay", { name: "payment" });
  rel("c8", "Access", "proc", "obj", { accessType: "Write" });
  rel("c9", "Access", "proc", "contract", { accessType: "Read" }, [{ x: 660, y: 255 }]);
  rel("c10", "Serving", "asvc", "acc", {}, [{ x: 335, y: 300 }]);
  rel("c11", "Realization", "afn", "asvc");
  rel("c12", "Access", "crm", "data", { accessType: "ReadWrite" }, [
    { x: 460, y: 460 },
    { x: 540, y: 460 },
  ]);
  rel("c13", "Serving", "tsvc", "data");
  rel("c14", "Realization", "dbms", "tsvc", {}, [
    { x: 100, y: 500 },
    { x: 585, y: 500 },
  ]);
  rel("c15", "Association", "dev", "net", { isDirected: true, name: "connected" });
  rel("c16", "Influence", "driver", "goal", { influenceStrength: "+" });
  rel("c17", "Realization", "req", "goal");
  rel("c18", "Association", "stake", "driver");
  rel("c19", "Aggregation", "loc", "or");
  rel("c20", "Composition", "node", "dev");
  rel("c21", "Specialization", "styled", "crm", {}, [
    { x: 715, y: 320 },
    { x: 130, y: 320 },
  ]);
  rel("c22", "Realization", "wp", "del");
  rel("c23", "Aggregation", "data", "or");
  rel("c24", "Association", "stake", "c16", { name: "on a relationship" });
  connections.push({
    id: "line1",
    kind: "line",
    sourceId: "note",
    targetId: "wp",
    style: { line: { r: 0, g: 0, b: 255 } },
  });
  return {
    view: { name: "Sample layered view", documentation: "Hand-built for the visual check" },
    nodes,
    connections,
  };
}

/** Every element type once, in a grid, to look at the shapes and icons. */
export function galleryView(types: readonly string[]): RenderInput {
  const nodes: RenderNode[] = types.map((type, i) => {
    const junction = type.endsWith("Junction");
    const x = 20 + (i % 8) * 150;
    const y = 20 + Math.floor(i / 8) * 80;
    return {
      id: `n${i}`,
      kind: "element",
      x: junction ? x + 50 : x,
      y: junction ? y + 20 : y,
      w: junction ? 15 : 130,
      h: junction ? 15 : 55,
      element: { type, name: type.replace(/([a-z])([A-Z])/g, "$1 $2") },
    };
  });
  return { view: { name: "Gallery" }, nodes, connections: [] };
}
