import { useEffect, useState } from "preact/hooks";
import { type HistoryObjectKind, historyApi, type ObjectChange, type ViewPartChange } from "../api/history.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { viaWords, whenWords, whoWords } from "./change-words.ts";
import { FieldChanges } from "./field-changes.tsx";
import { usePagedHistory } from "./paged-history.ts";
import { reloadAfterChange } from "./reload.ts";

const OP_WORDS = { create: "Created", update: "Changed", delete: "Deleted" } as const;

function Parts(props: { parts: ViewPartChange[] }) {
  if (props.parts.length === 0) return null;
  return (
    <ul class="part-changes">
      {props.parts.map((p) => (
        <li key={`${p.kind}-${p.id}-${p.change}`}>
          {p.kind === "node" ? "Node" : "Connection"} <strong>{p.name ?? "(no name)"}</strong> {p.change}
          <FieldChanges fields={p.fields} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The selected element's, relationship's or view's history, newest first: who, when, which way, the fields before and
 * after (a view: its nodes and connections); an editor can bring back the state an entry left.
 */
export function HistoryPanel(props: { kind: HistoryObjectKind; id: string; editable: boolean; stamp?: unknown }) {
  const [restoring, setRestoring] = useState<ObjectChange | null>(null);

  const { items, next, loading, error, load } = usePagedHistory<ObjectChange>((before) =>
    historyApi.object(props.kind, props.id, before),
  );
  // Read again when the object (or the open view) changes: the newest entry is then the change just made.
  useEffect(() => {
    load();
  }, [props.kind, props.id, props.stamp]);

  const restore = async (entry: ObjectChange) => {
    try {
      const result = await historyApi.restoreObject(props.kind, props.id, entry.revision);
      await reloadAfterChange();
      notify(
        result.objects ? `Restored the state of revision ${entry.revision}.` : "Nothing to restore: it is unchanged.",
      );
      await load();
    } catch (err) {
      notifyError(err);
    }
  };

  return (
    <section class="history-panel" aria-labelledby="history-title">
      <h3 id="history-title">History</h3>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!loading && !error && items.length === 0 ? <p class="muted">No recorded changes.</p> : null}
      <ol class="history-list">
        {items.map((item) => (
          <li key={item.revision} class="history-entry">
            <p class="history-head">
              <strong>{OP_WORDS[item.op]}</strong> by <span class="who">{whoWords(item)}</span>{" "}
              <time dateTime={item.created_at}>{whenWords(item.created_at)}</time>
              <span class="muted"> via {viaWords(item)}</span>
            </p>
            <p class="muted small">{item.summary}</p>
            <FieldChanges fields={item.fields} />
            {item.parts ? <Parts parts={item.parts} /> : null}
            {item.detail_compacted ? (
              <p class="muted small">Field detail removed by history retention (who and when are kept).</p>
            ) : null}
            {props.editable && item.op !== "delete" && !item.detail_compacted ? (
              <button type="button" class="small" onClick={() => setRestoring(item)}>
                Restore this state
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {next !== null ? (
        <button type="button" class="small" disabled={loading} onClick={() => load(next)}>
          Older changes
        </button>
      ) : null}
      {restoring ? (
        <ConfirmDialog
          title="Restore this state?"
          message={
            <p>
              The {props.kind} goes back to how it was after revision {restoring.revision} (
              {whenWords(restoring.created_at)}). This is recorded as a new change; nothing is lost.
            </p>
          }
          confirmLabel="Restore"
          onAnswer={(yes) => {
            const entry = restoring;
            setRestoring(null);
            if (yes) restore(entry);
          }}
        />
      ) : null}
    </section>
  );
}
