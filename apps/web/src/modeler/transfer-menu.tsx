import { useState } from "preact/hooks";
import { describeError, upload } from "../api/client.ts";
import type { ImportResult } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError } from "../ui/form.tsx";
import { type ImportWarning, ImportWarnings } from "../ui/import-warnings.tsx";
import { notify } from "../ui/notices.tsx";
import { loadModel, model, openView } from "./model-store.ts";

function ImportDialog(props: { onClose(): void }) {
  const workspaceId = useStore(model, (s) => s.workspaceId);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<ImportWarning[] | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file || !workspaceId) return;
    setError(null);
    const form = new FormData();
    form.set("file", file);
    try {
      setProgress(0);
      const result = await upload<ImportResult>("/api/import", form, setProgress);
      await loadModel(workspaceId);
      openView(model.get().views[0]?.id ?? null);
      notify("The model was imported.");
      if (result.warnings.length) setWarnings(result.warnings);
      else props.onClose();
    } catch (err) {
      setError(`${describeError(err)} Nothing was changed: the previous model is intact.`);
    } finally {
      setProgress(null);
    }
  };
  return (
    <Dialog title="Import an Open Exchange file" onClose={props.onClose}>
      {warnings ? (
        <div class="dialog-body">
          <ImportWarnings warnings={warnings} />
          <footer class="dialog-actions">
            <button type="button" class="primary" onClick={props.onClose}>
              Close
            </button>
          </footer>
        </div>
      ) : (
        <form class="dialog-body" onSubmit={submit}>
          <p>The file replaces the whole model of this workspace. If it is refused, nothing changes.</p>
          <div class="field">
            <label for="imp-file">Open Exchange XML file</label>
            <input
              id="imp-file"
              type="file"
              required
              accept=".xml,application/xml,text/xml"
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
          </div>
          {progress !== null ? (
            <progress max={1} value={progress} aria-label="Upload progress">
              {Math.round(progress * 100)}%
            </progress>
          ) : null}
          <FormError error={error} />
          <DialogActions onCancel={props.onClose} submit="Import and replace" disabled={!file || progress !== null} />
        </form>
      )}
    </Dialog>
  );
}

/** Import (owners and editors) and export of the whole model. */
export function TransferMenu(props: { editable: boolean }) {
  const [importing, setImporting] = useState(false);
  return (
    <div class="transfer">
      {props.editable ? (
        <button type="button" onClick={() => setImporting(true)}>
          Import…
        </button>
      ) : null}
      <a class="button" href="/api/export" download>
        Export XML
      </a>
      <a class="button" href="/api/export/zip" download>
        Export ZIP
      </a>
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </div>
  );
}
