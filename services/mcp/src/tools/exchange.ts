import { exportModel, ImportResult, importModel } from "@ams/model";
import { z } from "zod";
import { data, defineTool, READ, UPDATE } from "./define.ts";

/** 50 MiB: the same ceiling as the request body, so any body that gets through can carry a model. */
export const MAX_XML = 50 * 1024 * 1024;

export const exchangeTools = [
  defineTool({
    name: "export_model",
    title: "Export the model as Open Exchange XML",
    description:
      "The whole model of the active workspace (elements, relationships, properties, views) as ArchiMate Open Exchange XML.",
    input: z.strictObject({}),
    annotations: READ,
    // Text only: an embedded resource would repeat a possibly large document in the same answer.
    run: async ({ ctx }) => ({ content: [{ type: "text", text: (await exportModel({ ctx })).xml }] }),
  }),
  defineTool({
    name: "import_model",
    title: "Import Open Exchange XML",
    description:
      "Replaces the active workspace's whole model with the given ArchiMate Open Exchange XML document " +
      "(identifiers are kept). Everything currently in the workspace is discarded.",
    input: z.strictObject({
      xml: z
        .string()
        .min(1)
        .max(MAX_XML)
        .describe(
          'The complete Open Exchange XML document (<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/">...)',
        ),
    }),
    output: ImportResult,
    annotations: UPDATE,
    run: async ({ ctx }, { xml }) => data(await importModel({ ctx, input: { xml } })),
  }),
];
