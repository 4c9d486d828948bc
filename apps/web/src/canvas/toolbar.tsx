import { useState } from "preact/hooks";
import { useStore } from "../app/store.ts";
import type { Alignment } from "./arrange.ts";
import { ColourBy } from "./colour-by.tsx";
import { editor } from "./editor-store.ts";
import type { Command } from "./history.ts";

/** The view's commands; each button is labelled for screen readers and shows its shortcut in its tooltip. */
export function ViewToolbar(props: {
  readOnly: boolean;
  selectedCount: number;
  hasSelection: boolean;
  /** The selection shows elements or relationships (not only notes, groups or lines). */
  hasModelSelection: boolean;
  history: { done: Command[]; undone: Command[]; busy: boolean };
  onZoom(f: number): void;
  onFit(): void;
  onActualSize(): void;
  onAlign(how: Alignment): void;
  onDistribute(axis: "horizontal" | "vertical"): void;
  onDeleteFromView(): void;
  onDeleteFromModel(): void;
  onDownload(format: "svg" | "png"): void;
  onUndo(): void;
  onRedo(): void;
}) {
  const { connecting, viewport } = useStore(editor);
  const h = props.history;
  const last = h.done[h.done.length - 1];
  const next = h.undone[h.undone.length - 1];
  const many = props.selectedCount >= 2;
  // On a phone the editing and arranging tools fold behind "Tools" so the zoom and the diagram keep the room.
  const [more, setMore] = useState(false);
  return (
    <div class={more ? "toolbar expanded" : "toolbar"} role="toolbar" aria-label="View editor">
      {props.readOnly ? null : (
        <div class="tool-group tool-secondary" id="tools-edit">
          <button
            type="button"
            aria-pressed={!connecting}
            title="Select and move (Escape)"
            onClick={() => editor.set((s) => ({ ...s, connecting: false, placing: null }))}
          >
            Select
          </button>
          <button
            type="button"
            aria-pressed={connecting}
            title="Connect: drag from one node to another"
            onClick={() => editor.set((s) => ({ ...s, connecting: !s.connecting, placing: null }))}
          >
            Connect
          </button>
          <button
            type="button"
            disabled={!last || h.busy}
            onClick={props.onUndo}
            title={`Undo ${last?.label ?? ""} (Ctrl+Z)`}
          >
            Undo
          </button>
          <button
            type="button"
            disabled={!next || h.busy}
            onClick={props.onRedo}
            title={`Redo ${next?.label ?? ""} (Ctrl+Y)`}
          >
            Redo
          </button>
        </div>
      )}
      <div class="tool-group">
        <button type="button" onClick={() => props.onZoom(0.8)} aria-label="Zoom out" title="Zoom out (-)">
          −
        </button>
        <span class="zoom-level" aria-live="polite">
          {Math.round(viewport.zoom * 100)}%
        </span>
        <button type="button" onClick={() => props.onZoom(1.25)} aria-label="Zoom in" title="Zoom in (+)">
          +
        </button>
        <button type="button" onClick={props.onFit} title="Fit the whole view on screen">
          Fit
        </button>
        <button type="button" onClick={props.onActualSize} title="Zoom to 100%">
          100%
        </button>
      </div>
      <ColourBy readOnly={props.readOnly} />
      {props.readOnly ? null : (
        <fieldset class="tool-group tool-secondary" id="tools-arrange">
          <legend class="visually-hidden">Arrange</legend>
          <label class="visually-hidden" for="align-select">
            Align selected nodes
          </label>
          <select
            id="align-select"
            disabled={!many}
            value=""
            onChange={(e) => {
              const v = e.currentTarget.value;
              e.currentTarget.value = "";
              if (v.startsWith("distribute-")) props.onDistribute(v.slice(11) as "horizontal" | "vertical");
              else if (v) props.onAlign(v as Alignment);
            }}
          >
            <option value="">Align…</option>
            <option value="left">Align left</option>
            <option value="center">Align centre</option>
            <option value="right">Align right</option>
            <option value="top">Align top</option>
            <option value="middle">Align middle</option>
            <option value="bottom">Align bottom</option>
            <option value="distribute-horizontal" disabled={props.selectedCount < 3}>
              Distribute horizontally
            </option>
            <option value="distribute-vertical" disabled={props.selectedCount < 3}>
              Distribute vertically
            </option>
          </select>
          <button
            type="button"
            disabled={!props.hasSelection}
            onClick={props.onDeleteFromView}
            title="Remove from this view only (Delete)"
          >
            Delete from view
          </button>
          <button
            type="button"
            class="danger"
            disabled={!props.hasModelSelection}
            onClick={props.onDeleteFromModel}
            title="Delete the elements and relationships from the whole model"
          >
            Delete from model
          </button>
        </fieldset>
      )}
      <div class={props.readOnly ? "tool-group" : "tool-group tool-secondary"} id="tools-download">
        <button type="button" onClick={() => props.onDownload("svg")} title="Download this view as SVG">
          SVG
        </button>
        <button type="button" onClick={() => props.onDownload("png")} title="Download this view as PNG">
          PNG
        </button>
      </div>
      {props.readOnly ? null : (
        <button
          type="button"
          class="toolbar-more"
          aria-expanded={more}
          aria-controls="tools-edit tools-arrange tools-download"
          onClick={() => setMore(!more)}
        >
          Tools
        </button>
      )}
    </div>
  );
}
