import { useState } from "preact/hooks";
import { describeError, upload } from "../api/client.ts";
import type { ImportResult } from "../api/types.ts";
import { useStore } from "../app/store.ts";
import { Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError } from "../ui/form.tsx";
import { type ImportWarning, ImportWarnings } from "../ui/import-warnings.tsx";
import { notify } from "../ui/notices.tsx";
import { loadModel, model, openView } from "./model-store.ts";

type Format = "xml" | "csv";

function ImportDialog(props: { onClose(): void }) {
  const workspaceId = useStore(model, (s) => s.workspaceId);
  const [format, setFormat] = useState<Format>("xml");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<ImportWarning[] | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (files.length === 0 || !workspaceId) return;
    setError(null);
    const form = new FormData();
    if (format === "xml") form.set("file", files[0] as File);
    else for (const f of files) form.append("file", f, f.name);
    try {
      setProgress(0);
      const result = await upload<ImportResult>(`/api/import?format=${format}`, form, setProgress);
      await loadModel(workspaceId);
      if (format === "xml") openView(model.get().views[0]?.id ?? null);
      notify(
        format === "csv"
          ? `The CSV files were imported: ${result.created ?? 0} created, ${result.updated ?? 0} updated.`
          : // "Imported <file>: 3 elements added, 12 changed, 1 removed" (what the history records for it).
            `The model was imported${result.summary ? `: ${result.summary.replace(/^Imported .*?: /, "")}` : ""}.`,
      );
      if (result.warnings.length) setWarnings(result.warnings);
      else props.onClose();
    } catch (err) {
      setError(`${describeError(err)} Nothing was changed: the model is as it was.`);
    } finally {
      setProgress(null);
    }
  };
  return (
    <Dialog
      title={format === "xml" ? "Import an Open Exchange file" : "Import Archi CSV files"}
      onClose={props.onClose}
    >
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
          <fieldset class="field import-format">
            <legend>Format</legend>
            <label class="radio">
              <input
                type="radio"
                name="imp-format"
                checked={format === "xml"}
                onChange={() => {
                  setFormat("xml");
                  setFiles([]);
                }}
              />
              Open Exchange XML (replaces the model)
            </label>
            <label class="radio">
              <input
                type="radio"
                name="imp-format"
                checked={format === "csv"}
                onChange={() => {
                  setFormat("csv");
                  setFiles([]);
                }}
              />
              Archi CSV (updates by ID)
            </label>
          </fieldset>
          {format === "xml" ? (
            <p>The file replaces the whole model of this workspace. If it is refused, nothing changes.</p>
          ) : (
            <p>
              Archi's elements.csv, relations.csv and properties.csv (or a ZIP of them): a row whose ID exists updates
              that element or relationship, a new ID creates one. If any row is refused, nothing changes.
            </p>
          )}
          <div class="field">
            <label for="imp-file">{format === "xml" ? "Open Exchange XML file" : "Archi CSV files or ZIP"}</label>
            <input
              key={format}
              id="imp-file"
              type="file"
              required
              multiple={format === "csv"}
              accept={format === "xml" ? ".xml,application/xml,text/xml" : ".csv,text/csv,.zip,application/zip"}
              onChange={(e) => {
                setError(null);
                setFiles([...(e.currentTarget.files ?? [])]);
              }}
            />
          </div>
          {progress !== null ? (
            <progress max={1} value={progress} aria-label="Upload progress">
              {Math.round(progress * 100)}%
            </progress>
          ) : null}
          <FormError error={error} />
          <DialogActions
            onCancel={props.onClose}
            submit={format === "xml" ? "Import and replace" : "Import and update"}
            disabled={files.length === 0 || progress !== null}
          />
        </form>
      )}
    </Dialog>
  );
}

/** The model's export formats: one "Export" menu, so the header stays one row on a phone. */
const EXPORTS = [
  { href: "/api/export", label: "Export XML", title: "Open Exchange XML, for Archi and other ArchiMate tools" },
  { href: "/api/export/zip", label: "Export ZIP", title: "The exchange XML with the plugin icons its views use" },
  {
    href: "/api/export?format=csv",
    label: "Export CSV",
    title: "Archi's elements.csv, relations.csv, properties.csv in a ZIP",
  },
  { href: "/api/export?format=html", label: "HTML report", title: "A static site of the model that works offline" },
];

/** Import (owners and editors) and export of the whole model. */
export function TransferMenu(props: { editable: boolean }) {
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  return (
    <div class="transfer">
      {props.editable ? (
        <button type="button" onClick={() => setImporting(true)}>
          Import…
        </button>
      ) : null}
      <div class="user-menu">
        <button
          type="button"
          aria-expanded={exporting}
          aria-controls="export-menu"
          onClick={() => setExporting(!exporting)}
        >
          Export <span aria-hidden="true">▾</span>
        </button>
        {exporting ? (
          <ul class="menu" id="export-menu">
            {EXPORTS.map((e) => (
              <li key={e.href}>
                <a href={e.href} download title={e.title} onClick={() => setExporting(false)}>
                  {e.label}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </div>
  );
}
