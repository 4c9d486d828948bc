import { ELEMENT_TYPES, findViewpoint, LAYERS, viewpointAllows } from "@ams/shared";
import { useStore } from "../app/store.ts";
import { editor } from "./editor-store.ts";

/**
 * New elements for the view, grouped by layer and limited to what the view's viewpoint allows (all types without a
 * viewpoint). Choosing one arms the canvas: the next click places it. Notes and groups are view-only objects.
 */
export function Palette(props: { viewpoint: string | null }) {
  const { placing } = useStore(editor);
  const vp = props.viewpoint ? findViewpoint(props.viewpoint) : undefined;
  const arm = (type: string) =>
    editor.set((s) => ({ ...s, placing: s.placing === type ? null : type, connecting: false }));
  return (
    <nav class="palette" aria-label="Palette">
      <h2 class="panel-title">Palette</h2>
      {vp ? <p class="muted small">Viewpoint: {vp.name}</p> : null}
      <div class="palette-group">
        <h3>View</h3>
        <button type="button" aria-pressed={placing === "note"} onClick={() => arm("note")}>
          Note
        </button>
        <button type="button" aria-pressed={placing === "group"} onClick={() => arm("group")}>
          Group
        </button>
      </div>
      {LAYERS.map((layer) => {
        const types = ELEMENT_TYPES.filter((t) => t.layer === layer && (!vp || viewpointAllows(vp, t.name)));
        if (types.length === 0) return null;
        return (
          <div class="palette-group" key={layer}>
            <h3>{layer}</h3>
            {types.map((t) => (
              <button
                type="button"
                key={t.name}
                data-type={t.name}
                aria-pressed={placing === t.name}
                title={`New ${t.label}: click on the canvas to place it`}
                onClick={() => arm(t.name)}
              >
                {t.label}
              </button>
            ))}
          </div>
        );
      })}
    </nav>
  );
}
