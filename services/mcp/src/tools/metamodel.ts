import {
  AllowedRelationships,
  AllowedRelationshipsQuery,
  getAllowedRelationships,
  listMetamodelElementTypes,
  MetamodelElementTypes,
  MetamodelElementTypesQuery,
} from "@ams/model";
import { data, defineTool, READ } from "./define.ts";

export const metamodelTools = [
  defineTool({
    name: "list_metamodel_element_types",
    title: "All ArchiMate element types",
    description:
      "Every element type of the ArchiMate 3.1 metamodel with its display name and layer, whether the model uses it " +
      "or not (list_element_types lists only those in use). Optionally one layer.",
    input: MetamodelElementTypesQuery,
    output: MetamodelElementTypes,
    annotations: READ,
    run: async ({ ctx }, input) => data(listMetamodelElementTypes({ ctx, input })),
  }),
  defineTool({
    name: "get_allowed_relationships",
    title: "Relationships allowed between two types",
    description:
      "The relationship types ArchiMate 3.1 allows from a source type to a target type, e.g. ApplicationComponent to " +
      "ApplicationService: check before create_relationship. 'Relationship' stands for a relationship as an end.",
    input: AllowedRelationshipsQuery,
    output: AllowedRelationships,
    annotations: READ,
    run: async ({ ctx }, input) => data(getAllowedRelationships({ ctx, input })),
  }),
];
