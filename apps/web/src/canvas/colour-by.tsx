import { heatScale, PALETTES, type Palette } from "@ams/model/render";
import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Colouring } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { model } from "../modeler/model-store.ts";
import { notify, notifyError } from "../ui/notices.tsx";
import { editor } from "./editor-store.ts";

const ICON_PACK = "Service Plugin IconPack";
/** Metrics the browser can count from the model it holds; any other name is a property's. */
const METRICS: Record<string, string> = { relationship_count: "Relationships" };
const PALETTE_NAMES: Record<Palette, string> = {
  rag: "Red, amber, green",
  heat: "Heat",
  blues: "Blues",
  categories: "Categories",
};

/**
 * The view's elements coloured by a property or a metric, with the same colours as the server's heatmap picture
 * (GET /api/views/:id/image?color_by=): only this screen's drawing changes, never the view's stored colours.
 */
export function applyColouring(colorBy: string, palette: string): void {
  const { view } = editor.get();
  const { elements, relationships, definitions } = model.get();
  if (!view) return;
  const ids = new Set<string>();
  for (const n of view.nodes.values()) if (n.element_id) ids.add(n.element_id);
  const values = new Map<string, string | number>();
  let title = METRICS[colorBy];
  if (title) {
    for (const id of ids) values.set(id, 0);
    for (const r of relationships.values()) {
      for (const end of [r.source, r.target]) {
        const n = values.get(end);
        if (n !== undefined) values.set(end, (n as number) + 1);
      }
    }
  } else {
    const def = definitions.find((d) => d.name.toLowerCase() === colorBy.toLowerCase());
    title = def?.name ?? colorBy;
    for (const id of ids) {
      const props = elements.get(id)?.properties ?? {};
      const key = Object.keys(props).find((k) => k.toLowerCase() === title?.toLowerCase());
      const v = key === undefined ? undefined : props[key];
      if (v !== undefined && v !== null && v !== "") values.set(id, typeof v === "number" ? v : String(v));
    }
  }
  const chosen = (PALETTES as readonly string[]).includes(palette) ? (palette as Palette) : undefined;
  const scale = heatScale([...values.values()], chosen ?? (METRICS[colorBy] ? "heat" : undefined));
  const fills = new Map<string, string>();
  for (const id of ids) fills.set(id, scale.color(values.get(id)));
  editor.set((s) => ({
    ...s,
    heat: { colorBy, palette, fills, legend: { title: title ?? colorBy, entries: scale.entries } },
  }));
}

export function clearColouring(): void {
  editor.set((s) => ({ ...s, heat: null }));
}

/** The toolbar's "Colour by" menu: a property or metric, a palette, the workspace's saved colourings. */
export function ColourBy(props: { readOnly: boolean }) {
  const heat = useStore(editor, (s) => s.heat);
  const viewId = useStore(editor, (s) => s.view?.id);
  const definitions = useStore(model, (s) => s.definitions);
  const workspaceId = useStore(model, (s) => s.workspaceId);
  const [saved, setSaved] = useState<Colouring[]>([]);
  const [palette, setPalette] = useState("");
  const [naming, setNaming] = useState<string | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    api
      .get<Colouring[]>(`/api/workspaces/${encodeURIComponent(workspaceId)}/colourings`)
      .then(setSaved)
      .catch(() => setSaved([]));
  }, [workspaceId]);
  // A heatmap follows the open view: another view starts plain.
  useEffect(() => clearColouring(), [viewId]);
  const properties = definitions.filter((d) => d.name !== ICON_PACK);
  const current = heat ? `${heat.colorBy}\u0000${heat.palette}` : "";
  const choose = (value: string) => {
    if (!value) return clearColouring();
    const [colorBy = "", pal = ""] = value.split("\u0000");
    setPalette(pal);
    applyColouring(colorBy, pal);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const name = naming?.trim();
    if (!heat || !workspaceId || !name) return;
    try {
      const made = await api.post<Colouring>(`/api/workspaces/${encodeURIComponent(workspaceId)}/colourings`, {
        name: name.trim(),
        color_by: heat.colorBy,
        ...(heat.palette ? { palette: heat.palette } : {}),
      });
      setSaved([...saved.filter((c) => c.id !== made.id), made].sort((a, b) => a.name.localeCompare(b.name)));
      setNaming(null);
      notify(`Saved the colouring '${made.name}' for everyone in this workspace.`);
    } catch (err) {
      notifyError(new Error(describeError(err)));
    }
  };
  const remove = async (c: Colouring) => {
    if (!workspaceId) return;
    await api
      .del(`/api/workspaces/${encodeURIComponent(workspaceId)}/colourings/${encodeURIComponent(c.id)}`)
      .catch(notifyError);
    setSaved(saved.filter((s) => s.id !== c.id));
  };
  const savedMatch = heat ? saved.find((c) => c.color_by === heat.colorBy && (c.palette ?? "") === heat.palette) : null;
  return (
    <div class="tool-group colour-by">
      <label for="colour-by">Colour by</label>
      <select id="colour-by" value={current} onChange={(e) => choose(e.currentTarget.value)}>
        <option value="">Nothing (the view's colours)</option>
        {saved.length ? (
          <optgroup label="Saved colourings">
            {saved.map((c) => (
              <option key={c.id} value={`${c.color_by}\u0000${c.palette ?? ""}`}>
                {c.name}
              </option>
            ))}
          </optgroup>
        ) : null}
        <optgroup label="Properties">
          {properties.map((d) => (
            <option key={d.id} value={`${d.name}\u0000${palette}`}>
              {d.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="Metrics">
          {Object.entries(METRICS).map(([id, label]) => (
            <option key={id} value={`${id}\u0000${palette}`}>
              {label}
            </option>
          ))}
        </optgroup>
      </select>
      {heat ? (
        <>
          <label class="visually-hidden" for="colour-palette">
            Palette
          </label>
          <select
            id="colour-palette"
            value={heat.palette}
            onChange={(e) => {
              setPalette(e.currentTarget.value);
              applyColouring(heat.colorBy, e.currentTarget.value);
            }}
          >
            <option value="">Default palette</option>
            {PALETTES.map((p) => (
              <option key={p} value={p}>
                {PALETTE_NAMES[p]}
              </option>
            ))}
          </select>
          {props.readOnly ? null : savedMatch ? (
            <button type="button" onClick={() => remove(savedMatch)} title="Delete this saved colouring">
              Forget '{savedMatch.name}'
            </button>
          ) : naming !== null ? (
            <form class="inline-form" onSubmit={save}>
              <label for="colouring-name">Colouring name</label>
              <input id="colouring-name" value={naming} required onInput={(e) => setNaming(e.currentTarget.value)} />
              <button type="submit">Save for the workspace</button>
            </form>
          ) : (
            <button
              type="button"
              onClick={() => setNaming(`${heat.legend.title} ${PALETTE_NAMES[heat.palette as Palette] ?? ""}`.trim())}
              title="Save this colouring for everyone in the workspace"
            >
              Save colouring
            </button>
          )}
          <button type="button" onClick={clearColouring}>
            Clear colours
          </button>
        </>
      ) : null}
    </div>
  );
}

/** The heatmap's legend and the analysis shown on the view, over the canvas' corner. */
export function CanvasLegend() {
  const heat = useStore(editor, (s) => s.heat);
  const highlight = useStore(editor, (s) => s.highlight);
  if (!heat && !highlight) return null;
  return (
    <div class="canvas-legend">
      {heat ? (
        <section aria-label="Colour legend">
          <h3>Colour by: {heat.legend.title}</h3>
          <ul>
            {heat.legend.entries.map((e) => (
              <li key={e.label}>
                <span class="legend-swatch" style={{ background: e.color }} aria-hidden="true" /> {e.label}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {highlight ? (
        <section aria-label="Highlighted on the view">
          <p>
            <span class="legend-swatch outline" aria-hidden="true" /> {highlight.title}
          </p>
          <button type="button" onClick={() => editor.set((s) => ({ ...s, highlight: null }))}>
            Clear highlight
          </button>
        </section>
      ) : null}
    </div>
  );
}
