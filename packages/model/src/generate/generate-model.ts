import { allowedRelationships, ELEMENT_TYPES, type ElementType, type RelationshipType } from "@ams/shared";
import type { ModelDocument, ViewNodeRow } from "../exchange/document.ts";

export type GenerateOptions = {
  elements: number;
  /** Relationships to aim for (default 2 x elements); each is valid under the ArchiMate 3.1 table. */
  relationships?: number;
  views?: number;
  /** Element nodes per view (default 20). */
  nodesPerView?: number;
  seed?: number;
  /**
   * Give elements properties as real models have them (default false): every element an "Owner" (string), every
   * third a "Cost" (number), every fifth a "Lifecycle" (string).
   */
  properties?: boolean;
};

/** Small deterministic PRNG (mulberry32): the same options always give the same model. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ELEMENT_TYPES.filter((t) => t.name !== "AndJunction" && t.name !== "OrJunction").map((t) => t.name);
/** Prefer the relationships architects draw most, so generated models look like real ones. */
const PREFERENCE: RelationshipType[] = [
  "Serving",
  "Realization",
  "Assignment",
  "Flow",
  "Triggering",
  "Access",
  "Composition",
  "Aggregation",
  "Influence",
  "Association",
];

/** A synthetic model shaped like real ones: layered elements, valid relationships, views with nodes and connections. */
export function generateModel(opts: GenerateOptions): ModelDocument {
  const rnd = random(opts.seed ?? 42);
  const n = opts.elements;
  const relTarget = opts.relationships ?? 2 * n;
  const viewCount = opts.views ?? Math.max(1, Math.floor(n / 100));
  const perView = opts.nodesPerView ?? 20;
  const elements: ModelDocument["elements"] = [];
  for (let i = 0; i < n; i++) {
    const type = (TYPES[i % TYPES.length] ?? "BusinessActor") as ElementType;
    elements.push({
      id: `e-${i}`,
      ord: i,
      type,
      name: `${type} ${i}`,
      documentation: i % 10 === 0 ? `Documentation of element ${i}` : null,
      i18n: null,
    });
  }
  const relationships: ModelDocument["relationships"] = [];
  const bySource = new Map<number, number[]>();
  let attempts = 0;
  while (relationships.length < relTarget && attempts < relTarget * 4 && n > 1) {
    attempts++;
    const s = Math.floor(rnd() * n);
    // Mostly local links (like a real landscape), some far ones.
    const t = rnd() < 0.8 ? (s + 1 + Math.floor(rnd() * 40)) % n : Math.floor(rnd() * n);
    if (s === t) continue;
    const source = elements[s];
    const target = elements[t];
    if (!source || !target) continue;
    const allowed = allowedRelationships(source.type as ElementType, target.type as ElementType);
    const type = PREFERENCE.find((p) => allowed.includes(p) && rnd() < 0.7) ?? allowed[0];
    if (!type) continue;
    const i = relationships.length;
    relationships.push({
      id: `r-${i}`,
      ord: i,
      type,
      sourceId: `e-${s}`,
      targetId: `e-${t}`,
      name: null,
      documentation: null,
      isDirected: type === "Association" ? false : null,
      accessType: type === "Access" ? "Read" : null,
      influenceStrength: null,
      i18n: null,
    });
    const list = bySource.get(s) ?? [];
    list.push(i);
    bySource.set(s, list);
  }
  const views: ModelDocument["views"] = [];
  const nodes: ViewNodeRow[] = [];
  const connections: ModelDocument["connections"] = [];
  for (let v = 0; v < viewCount; v++) {
    const viewId = `v-${v}`;
    views.push({ id: viewId, ord: v, name: `View ${v}`, viewpoint: null, documentation: null, i18n: null });
    const first = Math.floor(rnd() * Math.max(1, n - perView));
    const nodeOf = new Map<number, string>();
    for (let k = 0; k < Math.min(perView, n); k++) {
      const e = first + k;
      const id = `n-${v}-${k}`;
      nodeOf.set(e, id);
      nodes.push({
        id,
        viewId,
        parentId: null,
        ord: k,
        kind: "element",
        elementId: `e-${e}`,
        x: 20 + (k % 10) * 160,
        y: 20 + Math.floor(k / 10) * 100,
        w: 120,
        h: 55,
        label: null,
        documentation: null,
        i18n: null,
        style: null,
      });
    }
    let c = 0;
    for (const [e, nodeId] of nodeOf) {
      for (const ri of bySource.get(e) ?? []) {
        const rel = relationships[ri];
        if (!rel) continue;
        const targetNode = nodeOf.get(Number(rel.targetId.slice(2)));
        if (!targetNode) continue;
        connections.push({
          id: `c-${v}-${c}`,
          viewId,
          ord: c,
          kind: "relationship",
          relationshipId: rel.id,
          sourceId: nodeId,
          targetId: targetNode,
          bendpoints: null,
          label: null,
          documentation: null,
          i18n: null,
          style: null,
        });
        c++;
      }
    }
  }
  const propertyDefinitions: ModelDocument["propertyDefinitions"] = [];
  const properties: ModelDocument["properties"] = [];
  if (opts.properties) {
    propertyDefinitions.push(
      { id: "pd-owner", ord: 0, name: "Owner", type: "string", isSystem: false, i18n: null },
      { id: "pd-cost", ord: 1, name: "Cost", type: "number", isSystem: false, i18n: null },
      { id: "pd-lifecycle", ord: 2, name: "Lifecycle", type: "string", isSystem: false, i18n: null },
    );
    const LIFECYCLE = ["Plan", "Active", "Retiring", "Retired"];
    for (let i = 0; i < n; i++) {
      const prop = (ord: number, definitionId: string, value: string) =>
        properties.push({ ownerKind: "element", ownerId: `e-${i}`, ord, definitionId, value, i18n: null });
      let ord = 0;
      prop(ord++, "pd-owner", `Team ${i % 37}`);
      if (i % 3 === 0) prop(ord++, "pd-cost", String((i * 7919) % 100_000));
      if (i % 5 === 0) prop(ord++, "pd-lifecycle", LIFECYCLE[i % LIFECYCLE.length] ?? "Active");
    }
  }
  return {
    model: { name: `Generated model (${n} elements)` },
    propertyDefinitions,
    elements,
    relationships,
    views,
    nodes,
    connections,
    properties,
    folders: [],
  };
}
