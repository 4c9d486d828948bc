import { VIEWPOINTS } from "@ams/shared";
import { useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { useStore } from "../app/store.ts";
import { editor } from "../canvas/editor-store.ts";
import { loadView } from "../canvas/operations.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notifyError } from "../ui/notices.tsx";
import { model, openView, reloadViews } from "./model-store.ts";
import { SavedText } from "./saved-text.tsx";

/** Name, viewpoint and documentation of a view; deleting a view keeps its elements in the model. */
export function ViewProperties(props: { viewId: string; editable: boolean }) {
  const view = useStore(model, (s) => s.views.find((v) => v.id === props.viewId));
  const [confirm, setConfirm] = useState(false);
  if (!view) return <p class="muted">This view no longer exists.</p>;
  const save = async (patch: Record<string, unknown>) => {
    await api.put(`/api/views/${encodeURIComponent(view.id)}`, patch);
    await reloadViews();
    if (editor.get().view?.id === view.id) await loadView(view.id);
  };
  const ro = !props.editable;
  return (
    <>
      <p class="muted">View</p>
      <SavedText id="view-name" label="Name" value={view.name} readOnly={ro} onSave={(name) => save({ name })} />
      <div class="field">
        <label for="view-viewpoint">Viewpoint</label>
        <select
          id="view-viewpoint"
          disabled={ro}
          value={view.viewpoint ?? ""}
          onChange={(e) => save({ viewpoint: e.currentTarget.value || null }).catch(notifyError)}
        >
          <option value="">None (all element types)</option>
          {VIEWPOINTS.map((vp) => (
            <option key={vp.id} value={vp.id}>
              {vp.name}
            </option>
          ))}
        </select>
      </div>
      <SavedText
        id="view-doc"
        label="Documentation"
        multiline
        value={view.documentation ?? ""}
        readOnly={ro}
        onSave={(documentation) => save({ documentation: documentation || null })}
      />
      {props.editable ? (
        <div class="panel-actions">
          <button type="button" class="danger" onClick={() => setConfirm(true)}>
            Delete view
          </button>
        </div>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="Delete view"
          danger
          confirmLabel="Delete view"
          message={<p>Delete the view '{view.name}'? Its elements and relationships stay in the model.</p>}
          onAnswer={async (yes) => {
            setConfirm(false);
            if (!yes) return;
            try {
              await api.del(`/api/views/${encodeURIComponent(view.id)}`);
              if (model.get().openViewId === view.id) openView(null);
              await reloadViews();
            } catch (err) {
              notifyError(err);
            }
          }}
        />
      ) : null}
    </>
  );
}
