import {
  CreateElementInput,
  createElement,
  deleteElement,
  getElement,
  ListElementsQuery,
  ListShape,
  listElementTypes,
  pageElementRelationships,
  pageElements,
  pageElementViews,
  shapeItems,
  UpdateElementInput,
  updateElement,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, UPDATE } from "./define.ts";
import { counts, described, ElementId, expectedRevision, LIST_LIMIT, pageArguments, pagingNote } from "./fields.ts";
import { Deleted, Element, ElementList, RelationshipList, TypeList, ViewReferenceList } from "./outputs.ts";
import { RELATIONSHIP_SHAPE } from "./relationships.ts";

/** An element's relationships and views: usually a handful, a hub element's can be thousands. */
const AROUND_LIMIT = { default: 100, max: 1000 } as const;

const elementFields = {
  name: "Element name, e.g. 'Customer Portal' (see the naming conventions in the archimate-modeling-guide prompt)",
  documentation: "Free-text description of the element; null clears it",
  properties:
    "Property values keyed by the name of an existing property definition (see list_property_definitions; create one first with create_property_definition); null removes a value",
} as const;

const ELEMENT_SHAPE = ListShape(["type", "name", "documentation", "properties"] as const, ["type", "name"]);

export const elementTools = [
  defineTool({
    name: "list_element_types",
    title: "List element types in use",
    description: "The sorted list of ArchiMate element types present in the active workspace's model.",
    input: z.strictObject({}),
    output: TypeList,
    annotations: READ,
    run: async ({ ctx }) => data({ types: await listElementTypes({ ctx }) }),
  }),
  defineTool({
    name: "list_elements",
    title: "List elements",
    description:
      "Elements of the active workspace in model order, optionally filtered by type and by a case-insensitive name substring. " +
      `${pagingNote("elements", LIST_LIMIT)} ` +
      "`summary: true` (id, type, name) or `fields` keeps answers small; documentation and each property value are cut at 1,000 characters.",
    input: described(ListElementsQuery, {
      type: "Only elements of this ArchiMate type, e.g. ApplicationComponent or 'Application Component'",
      name: "Only elements whose name contains this text (case-insensitive)",
    })
      .extend(pageArguments("elements", LIST_LIMIT))
      .extend(ELEMENT_SHAPE.shape),
    output: ElementList,
    annotations: READ,
    run: async ({ ctx }, { limit, offset, fields, summary, ...query }) => {
      const page = await pageElements({ ctx, input: { ...query, limit, offset } });
      return data({
        elements: shapeItems(page.items, { fields, summary, summaryFields: ["type", "name"] }),
        ...counts(page),
      });
    },
  }),
  defineTool({
    name: "get_element",
    title: "Get an element",
    description: "One element with its documentation and property values.",
    input: z.strictObject({ element_id: ElementId }),
    output: Element,
    annotations: READ,
    run: async ({ ctx }, { element_id }) => data(await getElement({ ctx, input: { id: element_id } })),
  }),
  defineTool({
    name: "create_element",
    title: "Create an element",
    description:
      "Creates an ArchiMate element in the active workspace and returns it with its id. " +
      "Choose the type with the archimate-modeling-guide prompt (resource archimate://layers lists every type by layer).",
    input: described(CreateElementInput, {
      ...elementFields,
      id: "Optional identifier (a valid xs:ID); generated as id-<uuid> when omitted",
      type: "ArchiMate 3.1 element type: exchange name (ApplicationComponent) or display name (Application Component)",
    }),
    output: Element,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createElement({ ctx, input })),
  }),
  defineTool({
    name: "update_element",
    title: "Update an element",
    description:
      "Changes the given fields of an element and keeps the others. Changing the type is refused when one of its " +
      "relationships would no longer be allowed by ArchiMate.",
    input: described(UpdateElementInput, {
      ...elementFields,
      type: "New ArchiMate element type (exchange or display name)",
    }).extend({ element_id: ElementId, ...expectedRevision }),
    output: Element,
    annotations: UPDATE,
    run: async ({ ctx }, { element_id, ...fields }) =>
      data(await updateElement({ ctx, input: { ...fields, id: element_id } })),
  }),
  defineTool({
    name: "delete_element",
    title: "Delete an element",
    description:
      "Deletes an element together with its relationships (and relationships attached to those), its nodes in every view and their connections.",
    input: z.strictObject({ element_id: ElementId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { element_id, expected_revision }) =>
      data(await deleteElement({ ctx, input: { id: element_id, expected_revision } })),
  }),
  defineTool({
    name: "get_element_relationships",
    title: "Relationships of an element",
    description:
      "The relationships whose source or target is the element, in model order. " +
      `${pagingNote("relationships", AROUND_LIMIT)} ` +
      "`summary: true` (id, type, source, target) or `fields` keeps answers small; documentation and each " +
      "property value are cut at 1,000 characters (get_relationship gives all of them).",
    input: z
      .strictObject({ element_id: ElementId })
      .extend(pageArguments("relationships", AROUND_LIMIT))
      .extend(RELATIONSHIP_SHAPE.shape),
    output: RelationshipList,
    annotations: READ,
    run: async ({ ctx }, { element_id, limit, offset, fields, summary }) => {
      const page = await pageElementRelationships({ ctx, input: { id: element_id, limit, offset } });
      return data({
        relationships: shapeItems(page.items, { fields, summary, summaryFields: ["type", "source", "target"] }),
        ...counts(page),
      });
    },
  }),
  defineTool({
    name: "get_element_views",
    title: "Views showing an element",
    description:
      "The views (diagrams) that show the element in at least one node, in model order. " +
      `${pagingNote("views", AROUND_LIMIT)} Documentation and each property value are cut at 1,000 characters.`,
    input: z.strictObject({ element_id: ElementId }).extend(pageArguments("views", AROUND_LIMIT)),
    output: ViewReferenceList,
    annotations: READ,
    run: async ({ ctx }, { element_id, limit, offset }) => {
      const page = await pageElementViews({ ctx, input: { id: element_id, limit, offset } });
      return data({ views: shapeItems(page.items, { summaryFields: [] }), ...counts(page) });
    },
  }),
];
