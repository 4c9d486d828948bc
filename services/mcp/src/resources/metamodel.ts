import {
  allowedRelationships,
  type Concept,
  ELEMENT_TYPES,
  LAYERS,
  RELATIONSHIP_CONCEPT,
  RELATIONSHIP_TYPES,
} from "@ams/shared";

/** What each relationship type means, for the resource and the modeling guide. */
export const RELATIONSHIP_MEANINGS: Record<string, string> = {
  Composition: "the target is part of the source and cannot exist without it",
  Aggregation: "the source groups the target; the target may also belong elsewhere",
  Assignment:
    "allocation of responsibility, performance of behavior, storage or execution (active structure -> behavior, actor -> role)",
  Realization:
    "the source plays a critical role in creating, achieving or implementing the target (more concrete -> more abstract)",
  Serving: "the source provides its functionality to the target (service -> user of the service)",
  Access:
    "behavior or an active structure element reads or writes a passive object (business object, data object, artifact)",
  Influence: "the source affects the motivation element at the target (+, ++, -, -- or 0..10)",
  Triggering: "a temporal or causal relation between behaviors or events (the source happens before the target)",
  Flow: "transfer of something (information, goods, money) from one behavior to another",
  Specialization: "the target is a more general concept of the same type as the source",
  Association: "an unspecified relation; use it only when no other relationship fits",
};

const concepts: Concept[] = [...ELEMENT_TYPES.map((t) => t.name), RELATIONSHIP_CONCEPT];

/** archimate://layers: every layer with its element types (exchange name and display label). */
export function layersDocument() {
  return {
    layers: LAYERS.map((layer) => ({
      name: layer,
      element_types: ELEMENT_TYPES.filter((t) => t.layer === layer).map((t) => ({ name: t.name, label: t.label })),
    })),
  };
}

/**
 * archimate://relationships: the relationship types and the full ArchiMate 3.1 validity table,
 * allowed[source][target] = allowed types; pairs that allow nothing are left out. "Relationship" as a source or
 * target stands for a relationship (relationships on relationships).
 */
export function relationshipsDocument() {
  const allowed: Record<string, Record<string, readonly string[]>> = {};
  for (const source of concepts) {
    const row: Record<string, readonly string[]> = {};
    for (const target of concepts) {
      const types = allowedRelationships(source, target);
      if (types.length > 0) row[target] = types;
    }
    if (Object.keys(row).length > 0) allowed[source] = row;
  }
  return {
    relationship_types: RELATIONSHIP_TYPES.map((t) => ({ name: t.name, meaning: RELATIONSHIP_MEANINGS[t.name] ?? "" })),
    note: "allowed[source type][target type] lists the relationship types ArchiMate 3.1 allows from source to target; create_relationship refuses any other.",
    allowed,
  };
}

let cache: { layers: string; relationships: string } | undefined;

/** Both documents as JSON text, built once per process: the metamodel is fixed at build time. */
export function metamodelJson() {
  cache ??= { layers: JSON.stringify(layersDocument()), relationships: JSON.stringify(relationshipsDocument()) };
  return cache;
}
