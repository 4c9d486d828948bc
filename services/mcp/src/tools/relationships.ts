import {
  CreateRelationshipInput,
  createRelationship,
  deleteRelationship,
  getRelationship,
  ListRelationshipsQuery,
  ListShape,
  listRelationshipTypes,
  pageRelationships,
  pageRelationshipViews,
  shapeItems,
  UpdateRelationshipInput,
  updateRelationship,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, UPDATE } from "./define.ts";
import {
  counts,
  described,
  expectedRevision,
  LIST_LIMIT,
  pageArguments,
  pagingNote,
  RelationshipId,
} from "./fields.ts";
import { Deleted, Relationship, RelationshipList, TypeList, ViewReferenceList } from "./outputs.ts";

const VIEWS_LIMIT = { default: 100, max: 1000 } as const;

const TYPES =
  "Composition, Aggregation, Assignment, Realization, Serving, Access, Influence, Triggering, Flow, Specialization, Association";

const relationshipFields = {
  name: "Optional label of the relationship; null clears it",
  documentation: "Free-text description; null clears it",
  is_directed: "Association only: true draws it as directed",
  access_type: "Access only: Access, Read, Write (default) or ReadWrite",
  influence_strength: "Influence only: +, ++, -, -- or 0..10",
  properties: "Property values keyed by the name of an existing property definition; null removes a value",
} as const;

export const RELATIONSHIP_SHAPE = ListShape(
  [
    "type",
    "source",
    "target",
    "name",
    "documentation",
    "is_directed",
    "access_type",
    "influence_strength",
    "properties",
  ] as const,
  ["type", "source", "target"],
);

export const relationshipTools = [
  defineTool({
    name: "list_relationship_types",
    title: "List relationship types in use",
    description: "The sorted list of relationship types present in the active workspace's model.",
    input: z.strictObject({}),
    output: TypeList,
    annotations: READ,
    run: async ({ ctx }) => data({ types: await listRelationshipTypes({ ctx }) }),
  }),
  defineTool({
    name: "list_relationships",
    title: "List relationships",
    description:
      "Relationships of the active workspace in model order, optionally filtered by type, source and target. " +
      `${pagingNote("relationships", LIST_LIMIT)} \`summary: true\` (id, type, source, ` +
      "target) or `fields` keeps answers small; documentation and each property value are cut at 1,000 characters.",
    input: described(ListRelationshipsQuery, {
      type: `Only relationships of this type (${TYPES})`,
      source_id: "Only relationships whose source is this element (or relationship) id",
      target_id: "Only relationships whose target is this element (or relationship) id",
    })
      .extend(pageArguments("relationships", LIST_LIMIT))
      .extend(RELATIONSHIP_SHAPE.shape),
    output: RelationshipList,
    annotations: READ,
    run: async ({ ctx }, { limit, offset, fields, summary, ...query }) => {
      const page = await pageRelationships({ ctx, input: { ...query, limit, offset } });
      const shaped = shapeItems(page.items, { fields, summary, summaryFields: ["type", "source", "target"] });
      return data({ relationships: shaped, ...counts(page) });
    },
  }),
  defineTool({
    name: "get_relationship",
    title: "Get a relationship",
    description: "One relationship with its source, target, attributes and property values.",
    input: z.strictObject({ relationship_id: RelationshipId }),
    output: Relationship,
    annotations: READ,
    run: async ({ ctx }, { relationship_id }) => data(await getRelationship({ ctx, input: { id: relationship_id } })),
  }),
  defineTool({
    name: "create_relationship",
    title: "Create a relationship",
    description:
      "Creates a relationship between two elements (or an element and a relationship). ArchiMate 3.1 decides which " +
      "types are allowed between the source and target types; a disallowed one is refused with the allowed list. " +
      "Resource archimate://relationships holds the full table.",
    input: described(CreateRelationshipInput, {
      ...relationshipFields,
      id: "Optional identifier (a valid xs:ID); generated when omitted",
      type: `Relationship type: ${TYPES} (the suffix 'Relationship' is accepted)`,
      source: "Id of the source element (or of a relationship, for relationships on relationships)",
      target: "Id of the target element (or of a relationship)",
    }),
    output: Relationship,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createRelationship({ ctx, input })),
  }),
  defineTool({
    name: "update_relationship",
    title: "Update a relationship",
    description:
      "Changes the given fields of a relationship and keeps the others. A new type, source or target is checked " +
      "against the ArchiMate rules again.",
    input: described(UpdateRelationshipInput, {
      ...relationshipFields,
      type: `New relationship type (${TYPES})`,
      source: "New source element (or relationship) id",
      target: "New target element (or relationship) id",
    }).extend({ relationship_id: RelationshipId, ...expectedRevision }),
    output: Relationship,
    annotations: UPDATE,
    run: async ({ ctx }, { relationship_id, ...fields }) =>
      data(await updateRelationship({ ctx, input: { ...fields, id: relationship_id } })),
  }),
  defineTool({
    name: "delete_relationship",
    title: "Delete a relationship",
    description: "Deletes a relationship, relationships attached to it, and the connections that draw them in views.",
    input: z.strictObject({ relationship_id: RelationshipId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { relationship_id, expected_revision }) =>
      data(await deleteRelationship({ ctx, input: { id: relationship_id, expected_revision } })),
  }),
  defineTool({
    name: "get_relationship_views",
    title: "Views drawing a relationship",
    description:
      "The views (diagrams) that draw the relationship as a connection, in model order. " +
      `${pagingNote("views", VIEWS_LIMIT)} Documentation and each property value are cut at 1,000 characters.`,
    input: z.strictObject({ relationship_id: RelationshipId }).extend(pageArguments("views", VIEWS_LIMIT)),
    output: ViewReferenceList,
    annotations: READ,
    run: async ({ ctx }, { relationship_id, limit, offset }) => {
      const page = await pageRelationshipViews({ ctx, input: { id: relationship_id, limit, offset } });
      return data({ views: shapeItems(page.items, { summaryFields: [] }), ...counts(page) });
    },
  }),
];
