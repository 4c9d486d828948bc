import { withArticle } from "@ams/model";
import { ELEMENT_TYPES, findViewpoint, LAYERS, VIEWPOINTS } from "@ams/shared";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** Viewpoint names starting with (or containing) what was typed, for prompt-argument completion. */
export function completeViewpoint(value: string): string[] {
  const typed = value.trim().toLowerCase();
  const names = VIEWPOINTS.map((v) => v.id as string);
  const starts = names.filter((n) => n.toLowerCase().startsWith(typed));
  return [...starts, ...names.filter((n) => !starts.includes(n) && n.toLowerCase().includes(typed))];
}

/** The create-viewpoint-view prompt: the viewpoint's allowed element types (from the metamodel) and a workflow. */
export function viewpointViewPrompt(viewpointName: string): string {
  const viewpoint = findViewpoint(viewpointName);
  if (!viewpoint) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown viewpoint '${viewpointName}'. Viewpoints: ${VIEWPOINTS.map((v) => v.id).join(", ")}`,
    );
  }
  const allowed = new Set<string>(viewpoint.elementTypes);
  const byLayer = LAYERS.map((layer) => {
    const types = ELEMENT_TYPES.filter((t) => t.layer === layer && allowed.has(t.name));
    return types.length ? `- ${layer}: ${types.map((t) => `${t.label} (${t.name})`).join(", ")}` : null;
  }).filter((line) => line !== null);
  const restriction = viewpoint.allowsAllElementTypes
    ? "This viewpoint restricts nothing: every element type may appear."
    : `Only these ${allowed.size} element types belong on ${withArticle(viewpoint.name)} view:`;

  return [
    `# Create a view for the ArchiMate 3.1 viewpoint "${viewpoint.name}"`,
    "",
    restriction,
    ...byLayer,
    "ArchiMate 3.1 viewpoints restrict element types only; any relationship the metamodel allows between them may be drawn " +
      "(resource archimate://relationships).",
    "",
    "## Workflow",
    `1. create_view {name: "<subject>", viewpoint: "${viewpoint.id}"} and keep the returned view id.`,
    "2. For each concept, look for an existing element first: list_elements {type, name}. Create only what is missing with " +
      "create_element, using one of the types above.",
    "3. Place each element with create_node {view_id, element_id, x, y, w: 120, h: 55}: one row per layer (top: " +
      "motivation/strategy/business, middle: application, bottom: technology/physical), about 160 px apart horizontally and " +
      "100 px vertically. Nest with parent_id (coordinates inside the parent's box) where composition or assignment reads better as nesting.",
    "4. Relate the elements with create_relationship {type, source, target} (check the allowed types first) and draw each one with " +
      "create_connection {view_id, source: <source node id>, target: <target node id>, relationship_id}.",
    "5. render_view {view_id}: check that nothing overlaps and every relationship is drawn; adjust with update_node.",
    ...(viewpoint.allowsAllElementTypes
      ? []
      : [
          `Elements of other types (e.g. ${ELEMENT_TYPES.filter((t) => !allowed.has(t.name))
            .slice(0, 3)
            .map((t) => t.label)
            .join(", ")}) do not belong on this view; show them on a view of another viewpoint.`,
        ]),
  ].join("\n");
}
