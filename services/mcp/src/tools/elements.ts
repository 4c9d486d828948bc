import {
  CreateElementInput,
  createElement,
  deleteElement,
  getElement,
  getElementRelationships,
  getElementViews,
  ListElementsQuery,
  ListShape,
  listElements,
  listElementTypes,
  shapeItems,
  UpdateElementInput,
  updateElement,
  ViewReferences,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, text, UPDATE } from "./define.ts";
import { described, ElementId, Limit, Offset, page } from "./fields.ts";
import { Element, ElementList, Relationship, TypeList } from "./outputs.ts";

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
      "Large models are paged: at most `limit` elements are returned and `omitted` tells how many more match. " +
      "`summary: true` (id, type, name) or `fields` keeps answers small; documentation is cut at 1,000 characters.",
    input: described(ListElementsQuery, {
      type: "Only elements of this ArchiMate type, e.g. ApplicationComponent or 'Application Component'",
      name: "Only elements whose name contains this text (case-insensitive)",
    })
      .extend({ limit: Limit, offset: Offset })
      .extend(ELEMENT_SHAPE.shape),
    output: ElementList,
    annotations: READ,
    run: async ({ ctx }, { limit, offset, fields, summary, ...query }) => {
      const { items, total, omitted } = page(await listElements({ ctx, input: query }), offset, limit);
      return data({
        elements: shapeItems(items, { fields, summary, summaryFields: ["type", "name"] }),
        total,
        omitted,
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
    }).extend({ element_id: ElementId }),
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
    input: z.strictObject({ element_id: ElementId }),
    annotations: DELETE,
    run: async ({ ctx }, { element_id }) => {
      await deleteElement({ ctx, input: { id: element_id } });
      return text(`Deleted element '${element_id}' with its relationships and view nodes.`);
    },
  }),
  defineTool({
    name: "get_element_relationships",
    title: "Relationships of an element",
    description: "Every relationship whose source or target is the element, in model order.",
    input: z.strictObject({ element_id: ElementId }),
    output: z.object({ relationships: z.array(Relationship) }),
    annotations: READ,
    run: async ({ ctx }, { element_id }) =>
      data({ relationships: await getElementRelationships({ ctx, input: { id: element_id } }) }),
  }),
  defineTool({
    name: "get_element_views",
    title: "Views showing an element",
    description: "The views (diagrams) that show the element in at least one node, in model order.",
    input: z.strictObject({ element_id: ElementId }),
    output: ViewReferences,
    annotations: READ,
    run: async ({ ctx }, { element_id }) => data({ views: await getElementViews({ ctx, input: { id: element_id } }) }),
  }),
];
