import { VIEWPOINTS } from "@ams/shared";
import { useState } from "preact/hooks";
import { api } from "../api/client.ts";
import type { ViewSummary } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { editor } from "../canvas/editor-store.ts";
import { loadView } from "../canvas/operations.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notifyError } from "../ui/notices.tsx";
import { ConflictBox, useMergingSave } from "./conflict.tsx";
import { model, openView, putViews, reloadViews } from "./model-store.ts";
import { SavedText } from "./saved-text.tsx";

/** Name, viewpoint and documentation of a view; deleting a view keeps its elements in the model. */
export function ViewProperties(props: { viewId: string; editable: boolean }) {
  const view = useStore(model, (s) => s.views.find((v) => v.id === props.viewId));
  const [confirm, setConfirm] = useState(false);
  if (!view) return <p class="muted">This view no longer exists.</p>;
  return <ViewFields view={view} editable={props.editable} confirm={confirm} setConfirm={setConfirm} />;
}

/** Stores a view's new summary in the list, and redraws it when it is open. */
function putView(saved: ViewSummary) {
  putViews(model.get().views.map((v) => (v.id === saved.id ? { ...v, ...saved } : v)));
  if (editor.get().view?.id === saved.id) void loadView(saved.id).catch(() => undefined);
}

function ViewFields(props: {
  view: ViewSummary;
  editable: boolean;
  confirm: boolean;
  setConfirm(open: boolean): void;
}) {
  const { view, confirm, setConfirm } = props;
  const merging = useMergingSave<ViewSummary>({
    base: view,
    send: (patch, revision) => api.put<ViewSummary>(`/api/views/${encodeURIComponent(view.id)}`, patch, revision),
    onSaved: putView,
  });
  const save = merging.save;
  const ro = !props.editable;
  return (
    <>
      <p class="muted">View</p>
      {merging.conflict ? (
        <ConflictBox
          what="view"
          conflict={merging.conflict}
          editable={props.editable}
          onKeepMine={merging.keepMine}
          onTakeTheirs={merging.takeTheirs}
        />
      ) : null}
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
              await api.del(`/api/views/${encodeURIComponent(view.id)}`, view.revision).catch(async (err) => {
                await reloadViews();
                throw err;
              });
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
