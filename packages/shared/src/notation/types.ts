/**
 * Shapes of the ArchiMate notation as data: the server renderer and the browser canvas draw from the same tables.
 * Icons are drawn in a 16x16 box; paths are SVG path data (also valid for Path2D).
 */

/**
 * The outline of an element box. Every element is drawn as its box with the type icon in the top-right corner
 * (the common tool convention); the box outline carries the ArchiMate category:
 * - rect: active and passive structure (square corners)
 * - rounded: behaviour, strategy behaviour, work package (rounded corners)
 * - pill: services (fully rounded ends)
 * - event: events (notched left side, rounded right side)
 * - cut: motivation elements (chamfered corners)
 * - wave: representation and deliverable (wavy bottom edge)
 * - box3d: node (a 3D box)
 * - tab: grouping (dashed box with a name tab)
 * - junction: a small circle
 */
export type ShapeKind = "rect" | "rounded" | "pill" | "event" | "cut" | "wave" | "box3d" | "tab" | "junction";

/**
 * How one path of an icon is painted:
 * - line: stroked with the icon ink, not filled (the default)
 * - ink: filled with the icon ink, not stroked
 * - body: filled with the element's fill colour and stroked (hides what is behind it, e.g. a component's tabs)
 */
export type IconPaint = "line" | "ink" | "body";

export type IconPath = { d: string; paint?: IconPaint };

/** An icon: paths in a box of ICON_BOX x ICON_BOX user units, stroked with width ICON_STROKE. */
export type Icon = readonly IconPath[];

/** Keys of the default colour palette (see colors.ts). */
export type PaletteKey =
  | "strategy"
  | "business"
  | "application"
  | "technology"
  | "physical"
  | "motivation"
  | "implementation"
  | "migration"
  | "location"
  | "grouping"
  | "junction"
  | "other";

export type ElementNotation = {
  shape: ShapeKind;
  /** Default fill; the conventional layer colour except for composites. */
  palette: PaletteKey;
  icon: Icon;
  /** Junctions only: an Or junction is drawn hollow. */
  hollow?: boolean;
};

/** End decorations of a connection; each is drawn pointing along the line towards its end. */
export type MarkerKind =
  | "diamondFilled"
  | "diamondHollow"
  | "dot"
  | "arrowFilled"
  | "arrowOpen"
  | "arrowSmall"
  | "triangleHollow"
  | "halfArrow";

export type LineDash = "solid" | "dashed" | "dotted" | "shortDashed";

export type RelationshipNotation = {
  dash: LineDash;
  source: MarkerKind | null;
  target: MarkerKind | null;
};

/**
 * A marker in its own frame: the line end is at (0,0) and the line arrives from negative x, so the path lies in
 * x <= 0. `fill` "line" paints it in the line colour, "background" in white (hollow heads hide the line under
 * them), "none" leaves it open. `size` bounds |x| and |y| of the path.
 */
export type MarkerGeometry = {
  d: string;
  fill: "line" | "background" | "none";
  size: number;
};
