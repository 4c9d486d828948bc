import type { Layer } from "../metamodel/index.ts";
import type { PaletteKey } from "./types.ts";

/**
 * The conventional ArchiMate colours, as most tools ship them. Users override them per node with the view's styles.
 * Physical elements share the technology green; implementation is pink, migration (plateau, gap) pale green.
 */
export const PALETTE: Readonly<Record<PaletteKey, string>> = {
  strategy: "#f5deaa",
  business: "#ffffb5",
  application: "#b5ffff",
  technology: "#c9e7b7",
  physical: "#c9e7b7",
  motivation: "#ccccff",
  implementation: "#ffe0e0",
  migration: "#e0ffe0",
  location: "#fbb875",
  grouping: "#f4f4f4",
  junction: "#000000",
  other: "#ffffff",
};

/**
 * One colour per metamodel layer, for legends and layer bands. Element boxes use their type's `palette` key,
 * which differs from the layer only where convention does (migration, location, grouping, junctions).
 */
export const LAYER_COLORS: Readonly<Record<Layer, string>> = {
  Business: PALETTE.business,
  Application: PALETTE.application,
  Technology: PALETTE.technology,
  Physical: PALETTE.physical,
  Motivation: PALETTE.motivation,
  Strategy: PALETTE.strategy,
  Implementation: PALETTE.implementation,
  Composite: PALETTE.other,
};

/** Defaults for what the palette does not cover. */
export const NOTATION_DEFAULTS = {
  /** Outline of element boxes. */
  nodeLine: "#5c5c5c",
  /** Icons, and the outline of junctions. */
  ink: "#1a1a1a",
  /** Connections and their markers. */
  connectionLine: "#000000",
  text: "#000000",
  /** Hollow markers and text halos. */
  background: "#ffffff",
  /** Fill of a view's container nodes (a labelled box, not an ArchiMate element). */
  container: "#e8ecec",
  fontFamily: "Segoe UI, Helvetica, Arial, sans-serif",
  /** Font size in points, the unit of the exchange format's font/@size; 9pt = 12px. */
  fontSizePt: 9,
  lineWidth: 1,
} as const;
