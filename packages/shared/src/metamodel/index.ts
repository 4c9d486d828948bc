/**
 * The ArchiMate 3.1 metamodel: element and relationship types, layers, the relationship validity table and the
 * viewpoints. The data lives in generated.ts (./pnpm gen:metamodel); this file only indexes it for O(1) lookups.
 */
import {
  ELEMENT_TYPE_ALIASES,
  ELEMENT_TYPE_ROWS,
  LAYER_NAMES,
  RELATIONSHIP_TABLE,
  RELATIONSHIP_TYPE_ROWS,
  VIEWPOINT_ROWS,
} from "./generated.ts";

export type ElementType = (typeof ELEMENT_TYPE_ROWS)[number]["name"];
export type RelationshipType = (typeof RELATIONSHIP_TYPE_ROWS)[number]["name"];
export type Layer = (typeof LAYER_NAMES)[number];
export type ViewpointId = (typeof VIEWPOINT_ROWS)[number]["id"];
/** The pseudo concept standing for a relationship as the source or target of another relationship. */
export const RELATIONSHIP_CONCEPT = "Relationship";
export type Concept = ElementType | typeof RELATIONSHIP_CONCEPT;

export interface ElementTypeInfo {
  readonly name: ElementType;
  readonly label: string;
  readonly layer: Layer;
  /** The concept name in Archi's own format; differs only for the junctions ("Junction"). */
  readonly archiName: string;
}

export interface RelationshipTypeInfo {
  readonly name: RelationshipType;
  /** Letter in Archi's relationship table. */
  readonly letter: string;
  /** Archi's class name, e.g. "ServingRelationship". */
  readonly archiName: string;
}

export interface Viewpoint {
  /** The exchange-format name (XSD ViewpointsEnum), e.g. "Application Cooperation". */
  readonly id: ViewpointId;
  /** Stable camelCase key derived from the id, e.g. "applicationCooperation". */
  readonly key: string;
  /** Archi's viewpoint id, e.g. "application_cooperation". */
  readonly archiId: string;
  readonly name: string;
  /** True for a viewpoint that restricts nothing (Layered). */
  readonly allowsAllElementTypes: boolean;
  /** Allowed element types, layer macros expanded, Grouping and junctions included. */
  readonly elementTypes: readonly ElementType[];
  /** ArchiMate 3.1 viewpoints do not restrict relationship types: all of them. */
  readonly relationshipTypes: readonly RelationshipType[];
}

export const LAYERS: readonly Layer[] = LAYER_NAMES;

export const ELEMENT_TYPES: readonly ElementTypeInfo[] = ELEMENT_TYPE_ROWS.map((row) =>
  Object.freeze({
    name: row.name,
    label: row.label,
    layer: row.layer,
    archiName: "archiName" in row ? row.archiName : row.name,
  }),
);

export const RELATIONSHIP_TYPES: readonly RelationshipTypeInfo[] = RELATIONSHIP_TYPE_ROWS.map((row) =>
  Object.freeze({ ...row }),
);

const allRelationshipTypes: readonly RelationshipType[] = Object.freeze(RELATIONSHIP_TYPES.map((t) => t.name));

export const VIEWPOINTS: readonly Viewpoint[] = VIEWPOINT_ROWS.map((row) =>
  Object.freeze({
    ...row,
    elementTypes: Object.freeze([...row.elementTypes]),
    relationshipTypes: allRelationshipTypes,
  }),
);

// ---------------------------------------------------------------- name resolution

/** Case, spaces, underscores and hyphens do not matter: "application-component" names ApplicationComponent. */
const squash = (input: string) => input.toLowerCase().replace(/[\s_-]+/g, "");

const layerByType = new Map<ElementType, Layer>(ELEMENT_TYPES.map((t) => [t.name, t.layer]));
const elementTypeByName = new Map<string, ElementType>();
for (const type of ELEMENT_TYPES) {
  elementTypeByName.set(squash(type.name), type.name);
  elementTypeByName.set(squash(type.label), type.name);
}
for (const [alias, type] of Object.entries(ELEMENT_TYPE_ALIASES)) elementTypeByName.set(squash(alias), type);

const relationshipTypeByName = new Map<string, RelationshipType>(
  RELATIONSHIP_TYPES.map((t) => [squash(t.name), t.name]),
);

export function isElementType(value: string): value is ElementType {
  return layerByType.has(value as ElementType);
}

/** Accepts an exchange name, a display name or "Junction" (an And Junction). */
export function resolveElementType(input: string): ElementType | undefined {
  return elementTypeByName.get(squash(input));
}

/** Accepts "Serving", "serving relationship", "ServingRelationship", British "Realisation"/"Specialisation". */
export function resolveRelationshipType(input: string): RelationshipType | undefined {
  let key = squash(input);
  if (key.endsWith("relationship") && key !== "relationship") key = key.slice(0, -"relationship".length);
  return relationshipTypeByName.get(key.replace(/isation$/, "ization"));
}

export function layerOf(type: ElementType): Layer {
  const layer = layerByType.get(type);
  if (!layer) throw new TypeError(`not an ArchiMate element type: ${type}`);
  return layer;
}

// ---------------------------------------------------------------- relationship validity

// Concepts are numbered; the table is a flat array of bitmasks (bit i = RELATIONSHIP_TYPES[i]).
const conceptIndex = new Map<string, number>(
  [...ELEMENT_TYPES.map((t) => t.name), RELATIONSHIP_CONCEPT].map((name, i) => [name, i]),
);
const relationshipBit = new Map<RelationshipType, number>(RELATIONSHIP_TYPES.map((t, i) => [t.name, 1 << i]));
const bitOfLetter = new Map<string, number>(RELATIONSHIP_TYPES.map((t, i) => [t.letter, 1 << i]));
const conceptCount = conceptIndex.size;
const masks = new Uint16Array(conceptCount * conceptCount);
/** A letter or concept of the table that the lists above lack is a defect of this module: it stops loading. */
function tableEntry(map: Map<string, number>, key: string, what: string): number {
  const value = map.get(key);
  if (value === undefined) throw new TypeError(`the relationship table names an unknown ${what}: ${key}`);
  return value;
}
for (const [source, targets] of Object.entries(RELATIONSHIP_TABLE)) {
  const row = tableEntry(conceptIndex, source, "concept") * conceptCount;
  for (const [target, letters] of Object.entries(targets)) {
    let mask = 0;
    for (const letter of letters) mask |= tableEntry(bitOfLetter, letter, "relationship letter");
    masks[row + tableEntry(conceptIndex, target, "concept")] = mask;
  }
}
const typesByMask = new Map<number, readonly RelationshipType[]>();

function maskOf(source: Concept, target: Concept): number {
  const s = conceptIndex.get(source);
  const t = conceptIndex.get(target);
  return s === undefined || t === undefined ? 0 : (masks[s * conceptCount + t] ?? 0);
}

/** The relationship types ArchiMate 3.1 allows from source to target, in RELATIONSHIP_TYPES order. */
export function allowedRelationships(source: Concept, target: Concept): readonly RelationshipType[] {
  const mask = maskOf(source, target);
  let types = typesByMask.get(mask);
  if (!types) {
    types = Object.freeze(allRelationshipTypes.filter((type) => mask & (relationshipBit.get(type) ?? 0)));
    typesByMask.set(mask, types);
  }
  return types;
}

export function isRelationshipAllowed(relationship: RelationshipType, source: Concept, target: Concept): boolean {
  return (maskOf(source, target) & (relationshipBit.get(relationship) ?? 0)) !== 0;
}

// ---------------------------------------------------------------- viewpoints

const viewpointByName = new Map<string, Viewpoint>();
for (const viewpoint of VIEWPOINTS) {
  for (const name of [viewpoint.id, viewpoint.key, viewpoint.archiId, viewpoint.name]) {
    viewpointByName.set(squash(name), viewpoint);
  }
}
const elementTypesByViewpoint = new Map<string, ReadonlySet<ElementType>>(
  VIEWPOINTS.map((viewpoint) => [viewpoint.id, new Set(viewpoint.elementTypes)]),
);

/**
 * By exchange name, key, Archi id or display name, ignoring case, spaces, underscores and hyphens (so older
 * spellings like "Application Co-operation" match) and a trailing "Viewpoint".
 */
export function findViewpoint(input: string): Viewpoint | undefined {
  const key = squash(input);
  return viewpointByName.get(key) ?? viewpointByName.get(key.replace(/(.)viewpoint$/, "$1"));
}

export function viewpointAllows(viewpoint: Viewpoint, elementType: ElementType): boolean {
  const allowed = elementTypesByViewpoint.get(viewpoint.id);
  return allowed ? allowed.has(elementType) : viewpoint.elementTypes.includes(elementType);
}
