import type { connections, elements, relationships, viewNodes, views } from "@ams/db";

type ViewRow = typeof views.$inferSelect;
type ViewNodeRow = typeof viewNodes.$inferSelect;
type ConnectionRow = typeof connections.$inferSelect;
type ElementRow = typeof elements.$inferSelect;
type RelationshipRow = typeof relationships.$inferSelect;

/** Fields the renderer reads may be null (database) or missing (hand-built input). */
type Loose<T> = { [K in keyof T]?: T[K] | null | undefined };

export type RenderView = Pick<ViewRow, "name"> & Loose<Pick<ViewRow, "id" | "documentation">>;

/** The element an element node shows, with its `Service Plugin IconPack` property value when it has one. */
export type RenderElement = Pick<ElementRow, "type" | "name"> & { iconPack?: string | null };

/**
 * A view node. x, y, w, h are view coordinates: a child's x/y are ABSOLUTE (measured from the view's origin,
 * not from its parent), as in the Open Exchange Format 3.x (archimate3_Diagram.xsd LocationGroup: "from the
 * Top,Left (i.e. 0,0) corner of the diagram"; Archi's own exports place children inside their parent's absolute
 * box). Pass `coordinates: "relative"` in RenderInput for rows that store parent-relative positions.
 * kind: "element" | "label" | "container".
 */
export type RenderNode = Pick<ViewNodeRow, "id" | "kind" | "x" | "y" | "w" | "h"> &
  Loose<Pick<ViewNodeRow, "parentId" | "label" | "style">> & { element?: RenderElement | null };

export type RenderRelationship = Pick<RelationshipRow, "type"> &
  Loose<Pick<RelationshipRow, "name" | "accessType" | "isDirected" | "influenceStrength">>;

/**
 * A view connection. sourceId/targetId name a node or another connection of the view; bendpoints are absolute
 * view coordinates too. kind: "relationship" | "line".
 */
export type RenderConnection = Pick<ConnectionRow, "id" | "kind" | "sourceId" | "targetId"> &
  Loose<Pick<ConnectionRow, "bendpoints" | "label" | "style">> & { relationship?: RenderRelationship | null };

export type RenderInput = {
  view: RenderView;
  /** Any order; parents are drawn before their children, siblings in the given order. */
  nodes: readonly RenderNode[];
  /** Drawn above all nodes, in the given order. */
  connections: readonly RenderConnection[];
  /** How child node positions are stored; default "absolute" (the exchange format's convention). */
  coordinates?: "absolute" | "relative";
};

/**
 * Resolves a `Service Plugin IconPack` value (a plugin icon slug, or a legacy URL/relative path) to an icon:
 * `href` for an image the browser may fetch, `svg` for a sanitized SVG document to inline. undefined when the
 * value does not resolve (unknown slug, disabled plugin); the element then shows its type icon.
 */
export type IconResolver = (value: string) => { href: string } | { svg: string } | undefined;

/** A heatmap drawn over a view: a fill per node id (the view's own colours stay as stored) and its legend. */
export type Heat = {
  fills: ReadonlyMap<string, string>;
  legend: { title: string; entries: readonly { label: string; color: string }[] };
};

export type RenderOptions = {
  /** Colours the element nodes by a property or a metric, with a legend below the view. */
  heat?: Heat;
  resolveIcon?: IconResolver;
  /** A link around a node's or connection's markup (by its id): the HTML report's clickable elements. */
  href?: (id: string) => string | undefined;
  /** Prefix of the ids of markers and icon definitions, for pages that inline several SVGs. Default "ams-". */
  idPrefix?: string;
  /** Hears how the document was put together, so that the PNG rasterizer can draw it in tiles (png/tiles.ts). */
  layout?: (layout: SvgLayout) => void;
};

/**
 * How a view's SVG document was put together: its viewBox, the opening tag's other attributes, what follows the
 * opening tag up to the drawing (title, definitions, background), the drawing's parts, and which runs of parts are
 * one node or connection with the extent it covers. The document is `<svg …>` + head + parts + `</svg>`.
 */
export type SvgLayout = {
  vx: number;
  vy: number;
  vw: number;
  vh: number;
  /** The opening tag's attributes after xmlns, width, height and viewBox. */
  attrs: string;
  head: string;
  parts: readonly string[];
  /** parts[start, end) draw one node or connection within [minX, maxX] × [minY, maxY] (Infinity when it drew nothing). */
  items: readonly { start: number; end: number; minX: number; minY: number; maxX: number; maxY: number }[];
};
