import {
  CreatePropertyDefinitionInput,
  createPropertyDefinition,
  type PropertyDefinition as Definition,
  deletePropertyDefinition,
  getPropertyDefinition,
  pagePropertyDefinitions,
  UpdatePropertyDefinitionInput,
  updatePropertyDefinition,
} from "@ams/model";
import { z } from "zod";
import { CREATE, DELETE, data, defineTool, READ, UPDATE } from "./define.ts";
import { counts, DefinitionId, described, expectedRevision, pageArguments, pagingNote } from "./fields.ts";
import { DefinitionList, Deleted, LIST_ALLOWED_VALUES_CAP, PropertyDefinition } from "./outputs.ts";

const DEFINITIONS_LIMIT = { default: 200, max: 1000 } as const;

/** A definition as a list shows it: an enumeration's allowed values cut at LIST_ALLOWED_VALUES_CAP, saying so. */
function listed(d: Definition) {
  if (!d.allowed_values || d.allowed_values.length <= LIST_ALLOWED_VALUES_CAP) return d;
  return { ...d, allowed_values: d.allowed_values.slice(0, LIST_ALLOWED_VALUES_CAP), allowed_values_truncated: true };
}

const definitionFields = {
  name: "Property name, unique in the workspace (case-insensitive), e.g. 'Owner' or 'Lifecycle'",
  type: "Value type: string (default), boolean, date, number or enumeration (give allowed_values with it)",
  allowed_values:
    "enumeration only: the values it allows, e.g. ['Plan', 'Build', 'Run']; a new list is checked against the stored values",
} as const;

export const propertyDefinitionTools = [
  defineTool({
    name: "list_property_definitions",
    title: "List property definitions",
    description:
      "The property definitions of the active workspace. Element, relationship and view properties are keyed by these " +
      "names. is_system marks definitions the service owns (read-only). " +
      `${pagingNote("definitions", DEFINITIONS_LIMIT)} An enumeration shows its first ${LIST_ALLOWED_VALUES_CAP} ` +
      "allowed values (get_property_definition gives all of them).",
    input: z.strictObject(pageArguments("definitions", DEFINITIONS_LIMIT)),
    output: DefinitionList,
    annotations: READ,
    run: async ({ ctx }, { limit, offset }) => {
      const page = await pagePropertyDefinitions({ ctx, input: { limit, offset } });
      return data({ property_definitions: page.items.map(listed), ...counts(page) });
    },
  }),
  defineTool({
    name: "get_property_definition",
    title: "Get a property definition",
    description: "One property definition with its type, allowed values (enumerations) and is_system flag.",
    input: z.strictObject({ definition_id: DefinitionId }),
    output: PropertyDefinition,
    annotations: READ,
    run: async ({ ctx }, { definition_id }) => data(await getPropertyDefinition({ ctx, input: { id: definition_id } })),
  }),
  defineTool({
    name: "create_property_definition",
    title: "Create a property definition",
    description:
      "Defines a new property that elements, relationships and views can then carry (in their `properties`).",
    input: described(CreatePropertyDefinitionInput, {
      ...definitionFields,
      id: "Optional identifier (a valid xs:ID); generated when omitted",
    }),
    output: PropertyDefinition,
    annotations: CREATE,
    run: async ({ ctx }, input) => data(await createPropertyDefinition({ ctx, input })),
  }),
  defineTool({
    name: "update_property_definition",
    title: "Update a property definition",
    description:
      "Renames a property definition or changes its type (every stored value must fit the new type). System definitions are refused.",
    input: described(UpdatePropertyDefinitionInput, definitionFields).extend({
      definition_id: DefinitionId,
      ...expectedRevision,
    }),
    output: PropertyDefinition,
    annotations: UPDATE,
    run: async ({ ctx }, { definition_id, ...fields }) =>
      data(await updatePropertyDefinition({ ctx, input: { ...fields, id: definition_id } })),
  }),
  defineTool({
    name: "delete_property_definition",
    title: "Delete a property definition",
    description: "Deletes a property definition and its value on every object. System definitions are refused.",
    input: z.strictObject({ definition_id: DefinitionId, ...expectedRevision }),
    output: Deleted,
    annotations: DELETE,
    run: async ({ ctx }, { definition_id, expected_revision }) =>
      data(await deletePropertyDefinition({ ctx, input: { id: definition_id, expected_revision } })),
  }),
];
