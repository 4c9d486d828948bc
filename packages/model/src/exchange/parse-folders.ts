import { type ParseContext, readLang, register, withLangs } from "./parse-context.ts";
import { attr, type XmlNode } from "./xml-reader.ts";

/** Folders: ids numbered 1.. in document order, ord per parent; several <organizations> blocks are merged. */
export function readFolder(ctx: ParseContext, item: XmlNode, parentId: number | null, ord: number): void {
  const T = ctx.tag;
  const identifier = attr(item, "identifier") ?? null;
  if (identifier !== null && register(ctx, item, "#folder", "an organization item") === null) return;
  const label = readLang(ctx, item.children, T.label);
  let i18n = withLangs(null, "label", ctx.langs);
  const documentation = readLang(ctx, item.children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  const id = ctx.doc.folders.length + 1;
  const refId = attr(item, "identifierRef") ?? null;
  ctx.doc.folders.push({ id, parentId, ord, identifier, label, documentation, refId, i18n });
  let childOrd = 0;
  for (const c of item.children ?? []) if (c.name === T.item) readFolder(ctx, c, id, childOrd++);
}
