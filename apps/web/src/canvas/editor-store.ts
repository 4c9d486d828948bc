import { createStore } from "../app/store.ts";
import type { ViewState } from "./view-model.ts";

export type Viewport = { zoom: number; panX: number; panY: number };

export type EditorState = {
  view: ViewState | null;
  /** Selected node and connection ids. */
  selected: ReadonlySet<string>;
  viewport: Viewport;
  /** A palette type waiting to be placed by a click on the canvas. */
  placing: string | null;
  /** Connect mode: the next press on a node starts a connection. */
  connecting: boolean;
  /** Impact analysis shown on the view: these elements' nodes outlined, the others dimmed; null: nothing shown. */
  highlight: { elementIds: ReadonlySet<string>; title: string } | null;
  /** The "Colour by" heatmap: a fill per element id and its legend; the view's stored colours stay as they are. */
  heat: { colorBy: string; palette: string; fills: ReadonlyMap<string, string>; legend: HeatLegend } | null;
};

export type HeatLegend = { title: string; entries: readonly { label: string; color: string }[] };

export const editor = createStore<EditorState>({
  view: null,
  selected: new Set(),
  viewport: { zoom: 1, panX: 0, panY: 0 },
  placing: null,
  connecting: false,
  highlight: null,
  heat: null,
});

export function setView(update: (v: ViewState) => ViewState): void {
  editor.set((s) => (s.view ? { ...s, view: update(s.view) } : s));
}

export function setSelected(ids: Iterable<string>): void {
  editor.set((s) => ({ ...s, selected: new Set(ids) }));
}

export function setViewport(viewport: Viewport): void {
  editor.set((s) => ({ ...s, viewport }));
}
