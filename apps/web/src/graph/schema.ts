import { ELEMENT_TYPES, RELATIONSHIP_TYPES } from "@ams/shared";

/**
 * What completion offers: the graph's shape as the README publishes it (labels = `Element`, `View`, `Relationship`
 * and each ArchiMate type; relationship types in upper snake case plus CONTAINS, SOURCE, TARGET; the core properties)
 * plus the workspace's property definitions, which become node properties of the same name.
 */
export const relationshipTypeName = (type: string) => type.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

export type GraphVocabulary = { labels: string[]; relationshipTypes: string[]; properties: string[] };

const CORE_PROPERTIES = [
  "id",
  "name",
  "type",
  "layer",
  "documentation",
  "viewpoint",
  "is_directed",
  "access_type",
  "influence_strength",
];

export function graphVocabulary(propertyNames: string[] = []): GraphVocabulary {
  const labels = ["Element", "View", "Relationship", ...ELEMENT_TYPES.map((t) => t.name), "AndJunction", "OrJunction"];
  const relationshipTypes = [
    ...RELATIONSHIP_TYPES.map((r) => relationshipTypeName(r.name)),
    "CONTAINS",
    "SOURCE",
    "TARGET",
  ];
  const properties = [...CORE_PROPERTIES, ...propertyNames.filter((p) => !CORE_PROPERTIES.includes(p))];
  return { labels: [...new Set(labels)], relationshipTypes: [...new Set(relationshipTypes)], properties };
}

export const CYPHER_KEYWORDS = [
  "MATCH",
  "OPTIONAL",
  "WHERE",
  "RETURN",
  "WITH",
  "UNWIND",
  "ORDER",
  "BY",
  "SKIP",
  "LIMIT",
  "DISTINCT",
  "AS",
  "AND",
  "OR",
  "NOT",
  "XOR",
  "IN",
  "IS",
  "NULL",
  "TRUE",
  "FALSE",
  "UNION",
  "ALL",
  "EXISTS",
  "COUNT",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "END",
  "ASC",
  "DESC",
  "CONTAINS",
  "STARTS",
  "ENDS",
  // Refused by the server, but highlighted so the refusal is not a surprise.
  "CREATE",
  "MERGE",
  "DELETE",
  "DETACH",
  "SET",
  "REMOVE",
  "CALL",
];
