import type { RelationshipType } from "../metamodel/index.ts";
import type { LineDash, MarkerGeometry, MarkerKind, RelationshipNotation } from "./types.ts";

const r = (dash: LineDash, source: MarkerKind | null, target: MarkerKind | null): RelationshipNotation => ({
  dash,
  source,
  target,
});

/** Line style and end decorations of each ArchiMate 3.1 relationship, keyed by exchange-format type name. */
export const RELATIONSHIP_NOTATION = {
  Composition: r("solid", "diamondFilled", null),
  Aggregation: r("solid", "diamondHollow", null),
  Assignment: r("solid", "dot", "arrowFilled"),
  Realization: r("shortDashed", null, "triangleHollow"),
  Serving: r("solid", null, "arrowOpen"),
  /** Ends depend on the access type: see ACCESS_NOTATION. */
  Access: r("dotted", null, null),
  Influence: r("dashed", null, "arrowOpen"),
  Triggering: r("solid", null, "arrowFilled"),
  Flow: r("dashed", null, "arrowFilled"),
  Specialization: r("solid", null, "triangleHollow"),
  /** Undirected; see DIRECTED_ASSOCIATION_NOTATION. */
  Association: r("solid", null, null),
} as const satisfies Record<RelationshipType, RelationshipNotation>;

export type NotatedRelationshipType = keyof typeof RELATIONSHIP_NOTATION;

/**
 * Access by access type (exchange `accessType`, default "Access"). The arrow shows the direction of the data:
 * a write points at the passive object (the target), a read points back at the accessing behaviour (the source).
 */
export const ACCESS_NOTATION = {
  Access: r("dotted", null, null),
  Read: r("dotted", "arrowSmall", null),
  Write: r("dotted", null, "arrowSmall"),
  ReadWrite: r("dotted", "arrowSmall", "arrowSmall"),
} as const satisfies Record<string, RelationshipNotation>;

export const DIRECTED_ASSOCIATION_NOTATION: RelationshipNotation = r("solid", null, "halfArrow");

/** A view's plain line ("line" connections) and any relationship type the table does not know. */
export const PLAIN_LINE_NOTATION: RelationshipNotation = r("solid", null, null);

/** Dash arrays in user units for a line width of 1; null draws a solid line. */
export const LINE_DASH: Readonly<Record<LineDash, string | null>> = {
  solid: null,
  dashed: "7 4",
  shortDashed: "4 3",
  dotted: "1.5 2.5",
};

const DOT_R = 3.2;

/** End decorations, each drawn with the line end at (0,0) and the line arriving from negative x. */
export const MARKERS: Readonly<Record<MarkerKind, MarkerGeometry>> = {
  arrowFilled: { d: "M0 0L-10 -4.5L-10 4.5Z", fill: "line", size: 10 },
  arrowOpen: { d: "M-9.5 -5L0 0L-9.5 5", fill: "none", size: 10 },
  arrowSmall: { d: "M-6.5 -3.6L0 0L-6.5 3.6", fill: "none", size: 7 },
  triangleHollow: { d: "M0 0L-12 -6.5L-12 6.5Z", fill: "background", size: 13 },
  diamondFilled: { d: "M0 0L-7 -4.5L-14 0L-7 4.5Z", fill: "line", size: 14 },
  diamondHollow: { d: "M0 0L-7 -4.5L-14 0L-7 4.5Z", fill: "background", size: 14 },
  dot: { d: `M0 0A${DOT_R} ${DOT_R} 0 1 1 ${-2 * DOT_R} 0A${DOT_R} ${DOT_R} 0 1 1 0 0Z`, fill: "line", size: 7 },
  halfArrow: { d: "M-9.5 -5L0 0", fill: "none", size: 10 },
};

/** The notation of one relationship, with its access type and direction applied. Never throws. */
export function relationshipNotation(
  type: string,
  options: { accessType?: string | null; isDirected?: boolean | null } = {},
): RelationshipNotation {
  if (type === "Access") {
    const access = options.accessType ?? "Access";
    return Object.hasOwn(ACCESS_NOTATION, access)
      ? ACCESS_NOTATION[access as keyof typeof ACCESS_NOTATION]
      : ACCESS_NOTATION.Access;
  }
  if (type === "Association" && options.isDirected) return DIRECTED_ASSOCIATION_NOTATION;
  return Object.hasOwn(RELATIONSHIP_NOTATION, type)
    ? RELATIONSHIP_NOTATION[type as NotatedRelationshipType]
    : PLAIN_LINE_NOTATION;
}
