import { type Concept, isRelationshipAllowed, type RelationshipType } from "@ams/shared";
import type { ConnectionStyleExt, NodeStyleExt } from "./document.ts";
import { isNcName } from "./format.ts";
import { addError, addWarning, type ParseContext, RELATIONSHIP_MARK } from "./parse-context.ts";

const KIND_NAMES: Record<string, string> = {
  "#model": "the model",
  "#view": "a view",
  "#propdef": "a property definition",
  "#folder": "an organization item",
};
function describe(mark: string): string {
  if (mark.startsWith("#node@")) return "a view node";
  if (mark.startsWith("#connection@")) return "a connection";
  return KIND_NAMES[mark] ?? (mark === RELATIONSHIP_MARK ? "a relationship" : "an element");
}
/** An element type or "Relationship": what a relationship may connect. */
const isConcept = (mark: string | undefined): mark is string => mark !== undefined && mark.charCodeAt(0) !== 35; /* # */

/**
 * Second pass, once every identifier is known (relationships may point at later relationships, organizations at
 * later views): every reference must name an existing thing of the right kind.
 */
export function resolveReferences(ctx: ParseContext): void {
  checkRelationships(ctx);
  const ids = ctx.ids;
  for (const n of ctx.doc.nodes) {
    if (n.elementId !== null) {
      const mark = ids.get(n.elementId);
      if (!isConcept(mark) || mark === RELATIONSHIP_MARK)
        refError(ctx, n.id, "elementRef", n.elementId, mark, "an element");
    }
    if (n.style !== null) checkExtras(ctx, n.id, n.style as NodeStyleExt);
  }
  for (const c of ctx.doc.connections) {
    if (c.relationshipId !== null) {
      const mark = ids.get(c.relationshipId);
      if (mark !== RELATIONSHIP_MARK) refError(ctx, c.id, "relationshipRef", c.relationshipId, mark, "a relationship");
    }
    if (c.style !== null) checkExtras(ctx, c.id, c.style as ConnectionStyleExt);
  }
  for (const f of ctx.doc.folders) {
    if (f.refId !== null && !ids.has(f.refId)) {
      const where = f.identifier !== null ? `identifier ${f.identifier}` : `organization item '${f.label ?? f.id}'`;
      addError(ctx, where, `identifierRef '${f.refId}' does not exist`);
    }
  }
  resolvePropertyDefinitions(ctx);
}

/** Records a reference to nothing, or to the wrong kind of thing (unless that thing was already refused). */
function refError(
  ctx: ParseContext,
  owner: string,
  role: string,
  ref: string,
  mark: string | undefined,
  wanted: string,
) {
  if (mark === undefined) addError(ctx, `identifier ${owner}`, `${role} '${ref}' does not exist`);
  else if (mark !== "#unknown")
    addError(ctx, `identifier ${owner}`, `${role} '${ref}' is ${describe(mark)}, not ${wanted}`);
}

/** View references and a Label's conceptRef, kept in the style JSON. */
function checkExtras(ctx: ParseContext, owner: string, style: NodeStyleExt & ConnectionStyleExt): void {
  if (style.viewRefs !== undefined) {
    for (const ref of style.viewRefs) {
      const mark = ctx.ids.get(ref);
      if (mark !== "#view") refError(ctx, owner, "viewRef", ref, mark, "a view");
    }
  }
  if (style.conceptRef !== undefined) {
    const mark = ctx.ids.get(style.conceptRef);
    if (!isConcept(mark)) refError(ctx, owner, "conceptRef", style.conceptRef, mark, "an element or relationship");
  }
}

function checkEnd(ctx: ParseContext, id: string, role: string, ref: string, mark: string | undefined): boolean {
  if (ref === "") addError(ctx, `identifier ${id}`, `the relationship has no ${role}`);
  else if (!isConcept(mark)) refError(ctx, id, role, ref, mark, "an element or relationship");
  else return true;
  return false;
}

function checkRelationships(ctx: ParseContext): void {
  const ids = ctx.ids;
  for (const r of ctx.doc.relationships) {
    const source = ids.get(r.sourceId);
    const target = ids.get(r.targetId);
    const sourceOk = checkEnd(ctx, r.id, "source", r.sourceId, source);
    const targetOk = checkEnd(ctx, r.id, "target", r.targetId, target);
    if (!sourceOk || !targetOk) continue;
    if (isRelationshipAllowed(r.type as RelationshipType, source as Concept, target as Concept)) continue;
    const message = `${r.type} from ${source} '${r.sourceId}' to ${target} '${r.targetId}' is not allowed by the ArchiMate 3.1 relationship table`;
    if (ctx.strictRelationships) addError(ctx, `identifier ${r.id}`, message);
    else addWarning(ctx, `identifier ${r.id}`, `${message}; imported anyway`);
  }
}

/**
 * A property whose propertyDefinitionRef names no definition (tool-exports/aoeff_3_1.xml refers to definitions by
 * name, "Has Owner", without declaring them) keeps its values: we create one string definition per missing reference,
 * named after it, and warn. Refusing would lose a real tool's file; dropping the values would lose the user's data.
 * The reference becomes the definition's identifier when it is a valid xs:ID, else a derived one, so export validates.
 */
function resolvePropertyDefinitions(ctx: ParseContext): void {
  const created = new Map<string, { id: string; uses: number }>();
  const definitions = ctx.doc.propertyDefinitions;
  for (const p of ctx.doc.properties) {
    const ref = p.definitionId;
    const mark = ctx.ids.get(ref);
    if (mark === "#propdef") continue;
    let made = created.get(ref);
    if (made === undefined) {
      if (mark !== undefined) {
        const owner = p.ownerKind === "model" ? "model" : `identifier ${p.ownerId}`;
        addError(ctx, owner, `propertyDefinitionRef '${ref}' is ${describe(mark)}, not a property definition`);
        continue;
      }
      made = { id: freeIdentifier(ctx, ref), uses: 0 };
      created.set(ref, made);
      ctx.ids.set(made.id, "#propdef");
      definitions.push({
        id: made.id,
        ord: definitions.length,
        name: ref,
        type: "string",
        isSystem: false,
        i18n: null,
      });
    }
    made.uses++;
    p.definitionId = made.id;
  }
  for (const [ref, made] of created) {
    const values = `${made.uses} value${made.uses === 1 ? "" : "s"}`;
    addWarning(
      ctx,
      `identifier ${ref}`,
      `property definition '${ref}' was not declared: created a string definition named '${ref}' (identifier ${made.id}) for ${values}`,
    );
  }
}

function freeIdentifier(ctx: ParseContext, ref: string): string {
  if (isNcName(ref) && !ctx.ids.has(ref)) return ref;
  const base = `propdef-${ref.replace(/[^A-Za-z0-9_.-]+/g, "-")}`;
  let id = base;
  for (let k = 2; ctx.ids.has(id); k++) id = `${base}-${k}`;
  return id;
}
