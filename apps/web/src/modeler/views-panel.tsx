import { VIEWPOINTS } from "@ams/shared";
import { useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { ViewSummary } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField } from "../ui/form.tsx";
import { model, openView, reloadViews, select } from "./model-store.ts";

function NewViewDialog(props: { onClose(): void }) {
  const [name, setName] = useState("");
  const [viewpoint, setViewpoint] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const view = await api.post<ViewSummary>("/api/views", { name, ...(viewpoint ? { viewpoint } : {}) });
      await reloadViews();
      openView(view.id);
      props.onClose();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="New view" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <TextField id="nv-name" label="Name" required value={name} onValue={setName} />
        <div class="field">
          <label for="nv-viewpoint">Viewpoint</label>
          <select id="nv-viewpoint" value={viewpoint} onChange={(e) => setViewpoint(e.currentTarget.value)}>
            <option value="">None (all element types)</option>
            {VIEWPOINTS.map((vp) => (
              <option key={vp.id} value={vp.id}>
                {vp.name}
              </option>
            ))}
          </select>
        </div>
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit="Create view" />
      </form>
    </Dialog>
  );
}

/** The model's views; opening one shows it on the canvas, its properties (rename, viewpoint, delete) on the right. */
export function ViewsPanel(props: { editable: boolean }) {
  const views = useStore(model, (s) => s.views);
  const openId = useStore(model, (s) => s.openViewId);
  const [creating, setCreating] = useState(false);
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const shown = views.filter((v) => !q || v.name.toLowerCase().includes(q));
  return (
    <div class="views-panel">
      <div class="tree-filters">
        <input
          type="search"
          aria-label="Search views"
          placeholder="Search views"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        {props.editable ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New view
          </button>
        ) : null}
      </div>
      <ul class="view-list">
        {shown.map((v) => (
          <li key={v.id}>
            <button
              type="button"
              class={v.id === openId ? "view-item open" : "view-item"}
              aria-current={v.id === openId ? "true" : undefined}
              onClick={() => {
                openView(v.id);
                select({ kind: "view", id: v.id });
              }}
            >
              <span class="tree-name">{v.name}</span>
              {v.viewpoint ? (
                <span class="tree-type">{VIEWPOINTS.find((p) => p.id === v.viewpoint)?.name ?? v.viewpoint}</span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p class="muted">No views{q ? " match" : " yet"}.</p> : null}
      {creating ? <NewViewDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
