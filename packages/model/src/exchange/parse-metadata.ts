import type { MetadataEntry, ModelInfo } from "@ams/db";
import { DC_ELEMENTS, DC_NS } from "./format.ts";
import { addWarning, lineOf, type ParseContext } from "./parse-context.ts";
import { attr, type XmlNode } from "./xml-reader.ts";

/** Dublin Core entries are kept as "dc:<name>"; other metadata cannot be validated on export and is dropped. */
export function readMetadata(ctx: ParseContext, node: XmlNode, model: ModelInfo): void {
  const T = ctx.tag;
  const entries: MetadataEntry[] = [];
  const metadata: NonNullable<ModelInfo["metadata"]> = { entries };
  let groups = 0;
  const visit = (parent: XmlNode) => {
    for (const c of parent.children ?? []) {
      if (c.name === T.schema) metadata.schema ??= c.text;
      else if (c.name === T.schemaversion) metadata.schemaversion ??= c.text;
      else if (c.name === T.schemaInfo) {
        if (++groups === 2) addWarning(ctx, lineOf(ctx, c), "several schemaInfo groups were merged into one");
        visit(c);
      } else {
        const colon = c.name.indexOf(":");
        const prefix = colon === -1 ? "" : c.name.slice(0, colon);
        const local = c.name.slice(colon + 1);
        const ns =
          attr(c, prefix ? `xmlns:${prefix}` : "xmlns") ?? attr(node, `xmlns:${prefix}`) ?? ctx.namespaces.get(prefix);
        if (ns === DC_NS && DC_ELEMENTS.has(local)) {
          const lang = attr(c, "xml:lang");
          entries.push(
            lang === undefined ? { name: `dc:${local}`, value: c.text } : { name: `dc:${local}`, value: c.text, lang },
          );
        } else {
          addWarning(ctx, lineOf(ctx, c), `metadata <${c.name}> was dropped: only Dublin Core metadata is kept`);
        }
      }
    }
  };
  visit(node);
  model.metadata = metadata;
}
