import { exportCsvFiles, exportModel, ImportResult, importCsv, importModel } from "@ams/model";
import { invalid } from "@ams/shared";
import { z } from "zod";
import { data, defineTool, READ, UPDATE } from "./define.ts";

/** 50 MiB: the same ceiling as the request body, so any body that gets through can carry a model. */
export const MAX_XML = 50 * 1024 * 1024;

const Format = z
  .enum(["xml", "csv"])
  .optional()
  .describe(
    "xml (default): ArchiMate Open Exchange XML; csv: Archi's three CSV files (elements, relations, properties)",
  );

const csvFile = (what: string) => z.string().max(MAX_XML).optional().describe(what);

export const exchangeTools = [
  defineTool({
    name: "export_model",
    title: "Export the model as Open Exchange XML or Archi CSV",
    description:
      "The whole model of the active workspace (elements, relationships, properties, views) as ArchiMate Open Exchange XML; " +
      'with format "csv", Archi\'s three CSV files as a JSON object {"elements.csv", "relations.csv", "properties.csv"} ' +
      "(elements, relationships and properties; no views).",
    input: z.strictObject({ format: Format }),
    annotations: READ,
    // Text only: an embedded resource would repeat a possibly large document in the same answer.
    run: async ({ ctx }, { format }) =>
      format === "csv"
        ? { content: [{ type: "text", text: JSON.stringify((await exportCsvFiles({ ctx })).files) }] }
        : { content: [{ type: "text", text: (await exportModel({ ctx })).xml }] },
  }),
  defineTool({
    name: "import_model",
    title: "Import Open Exchange XML or Archi CSV",
    description:
      "xml (default): replaces the active workspace's whole model with the given ArchiMate Open Exchange XML document " +
      "(identifiers are kept); everything currently in the workspace is discarded. " +
      "csv: merges Archi's CSV files (elements, relations, properties: the text of each, any subset) with Archi's " +
      "rules: a row whose ID exists updates that element or relationship, a new ID creates one; all or nothing.",
    input: z.strictObject({
      format: Format,
      xml: z
        .string()
        .min(1)
        .max(MAX_XML)
        .optional()
        .describe(
          'format xml: the complete Open Exchange XML document (<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/">...)',
        ),
      elements: csvFile('format csv: the text of elements.csv ("ID","Type","Name","Documentation","Specialization")'),
      relations: csvFile(
        'format csv: the text of relations.csv ("ID","Type","Name","Documentation","Source","Target","Specialization")',
      ),
      properties: csvFile('format csv: the text of properties.csv ("ID","Key","Value")'),
    }),
    output: ImportResult,
    annotations: UPDATE,
    run: async ({ ctx }, { format, xml, elements, relations, properties }) => {
      if (format === "csv") {
        const encoder = new TextEncoder();
        const files = Object.entries({ elements, relations, properties })
          .filter((e): e is [string, string] => typeof e[1] === "string")
          .map(([kind, text]) => ({ name: `${kind}.csv`, bytes: encoder.encode(text) }));
        return data(await importCsv({ ctx, input: { files } }));
      }
      if (!xml) throw invalid("xml", "give the Open Exchange XML document (or format csv and the CSV files)");
      return data(await importModel({ ctx, input: { xml } }));
    },
  }),
];
