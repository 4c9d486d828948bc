import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { type Draft, draftsApi, isOpen } from "../api/drafts.ts";
import { navigate, onLinkClick } from "../app/router.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { whenWords } from "../history/change-words.ts";
import { WorkspacePage } from "../history/workspace-page.tsx";
import { ConfirmDialog, Dialog } from "../ui/dialog.tsx";
import { DialogActions, FormError, TextField } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { approvalsWords, authorWords, changesWords, conflictsWords, markDraft, STATE_WORDS } from "./draft-words.ts";

/** "New draft": a name and what it is for; the fork opens in the modeler. */
function NewDraftDialog(props: { workspaceId: string; onClose(): void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const draft = await draftsApi.create(props.workspaceId, name.trim(), description.trim() || null);
      markDraft(draft.id, draft);
      notify(`Draft “${draft.name}” created: your changes stay in it until it is merged.`);
      navigate(`/workspaces/${encodeURIComponent(draft.id)}`);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title="New draft" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <p class="muted">
          A copy of the model as it is now, to change without anyone seeing it half-done. It is reviewed and merged back
          as one change.
        </p>
        <TextField id="draft-name" label="Name" value={name} onValue={setName} required maxLength={200} autoFocus />
        <div class="field">
          <label for="draft-description">Description (optional)</label>
          <textarea
            id="draft-description"
            rows={3}
            maxLength={10_000}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </div>
        <FormError error={error} />
        <DialogActions onCancel={props.onClose} submit={busy ? "Creating…" : "Create and open"} disabled={busy} />
      </form>
    </Dialog>
  );
}

function DraftItem(props: { draft: Draft; conflicts: number | undefined; onDiscard(d: Draft): void }) {
  const { draft: d } = props;
  const { profile } = useStore(session);
  const owner = ["owner", "admin"].includes(activeMembership(profile)?.role ?? "");
  const href = `/workspaces/${encodeURIComponent(d.id)}`;
  const open = isOpen(d);
  return (
    <li class={`workspace draft-item state-${d.state}`} data-draft={d.name}>
      <div class="workspace-main">
        <a href={`${href}/review`} onClick={onLinkClick}>
          {d.name}
        </a>
        <span class={`role-badge state-badge state-${d.state}`}>{STATE_WORDS[d.state]}</span>
        <p class="draft-author">
          {authorWords(d)}, <time dateTime={d.created_at}>{whenWords(d.created_at)}</time>
        </p>
        {d.description ? <p class="muted">{d.description}</p> : null}
        <p class="draft-counts muted">
          {changesWords(d.changes)} · {approvalsWords(d)}
          {d.changes_requested ? ` · ${d.changes_requested} asked for changes` : ""}
          {open && props.conflicts !== undefined ? (
            <>
              {" · "}
              <span class={props.conflicts ? "conflict-count" : undefined}>
                {conflictsWords(props.conflicts)} with the current model
              </span>
            </>
          ) : null}
          {!open && d.closed_reason ? ` · ${d.closed_reason}` : ""}
        </p>
      </div>
      <div class="row-actions">
        <a class="button" href={href} onClick={onLinkClick} aria-label={`Open “${d.name}” in the modeler`}>
          Open
        </a>
        <a class="button" href={`${href}/review`} onClick={onLinkClick} aria-label={`Review “${d.name}”`}>
          Review
        </a>
        {open && canEdit(profile) && (d.author.id === profile?.id || owner) ? (
          <button type="button" class="danger" onClick={() => props.onDiscard(d)} aria-label={`Discard “${d.name}”`}>
            Discard
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** A workspace's drafts: who started each and how, its state, changes, approvals and conflicts; a new one. */
function Drafts(props: { workspaceId: string }) {
  const { profile } = useStore(session);
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [conflicts, setConflicts] = useState<Record<string, number>>({});
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [discarding, setDiscarding] = useState<Draft | null>(null);
  const load = async () => {
    try {
      const list = await draftsApi.list(props.workspaceId);
      // Newest first: what people work on now comes before what was merged long ago.
      list.reverse();
      setDrafts(list);
      setError(null);
      const counts = await Promise.all(
        list.filter(isOpen).map((d) =>
          draftsApi.conflicts(d.id).then(
            (c) => [d.id, c.conflicts.length] as const,
            () => null,
          ),
        ),
      );
      setConflicts(Object.fromEntries(counts.filter((c) => c !== null)));
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => {
    load();
  }, [props.workspaceId]);

  const discard = async (d: Draft) => {
    try {
      await draftsApi.discard(d.id);
      notify(`Draft “${d.name}” discarded; it stays, read-only, with its history.`);
      await load();
    } catch (err) {
      notifyError(err);
    }
  };

  const open = drafts?.filter(isOpen) ?? [];
  const closed = drafts?.filter((d) => !isOpen(d)) ?? [];
  return (
    <>
      <div class="page-head">
        <p>
          Drafts are copies of this model to prepare a change in (a target architecture, an assistant's proposal):
          reviewed, then merged back as one change.
        </p>
        {canEdit(profile) ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New draft
          </button>
        ) : null}
      </div>
      <FormError error={error} />
      {drafts === null && !error ? (
        <p class="loading" aria-busy="true">
          Loading…
        </p>
      ) : null}
      {drafts && drafts.length === 0 ? (
        <p class="empty">
          No drafts yet.{" "}
          {canEdit(profile) ? "“New draft” starts one." : "Owners and editors start drafts; you can review them."}
        </p>
      ) : null}
      {open.length ? (
        <section aria-labelledby="open-drafts">
          <h2 id="open-drafts">Open</h2>
          <ul class="workspace-list" aria-labelledby="open-drafts">
            {open.map((d) => (
              <DraftItem key={d.id} draft={d} conflicts={conflicts[d.id]} onDiscard={setDiscarding} />
            ))}
          </ul>
        </section>
      ) : null}
      {closed.length ? (
        <section aria-labelledby="closed-drafts">
          <h2 id="closed-drafts">Merged and closed</h2>
          <ul class="workspace-list" aria-labelledby="closed-drafts">
            {closed.map((d) => (
              <DraftItem key={d.id} draft={d} conflicts={undefined} onDiscard={setDiscarding} />
            ))}
          </ul>
        </section>
      ) : null}
      {creating ? <NewDraftDialog workspaceId={props.workspaceId} onClose={() => setCreating(false)} /> : null}
      {discarding ? (
        <ConfirmDialog
          title={`Discard “${discarding.name}”?`}
          message={
            <p>Its changes are not merged. The draft stays, read-only, with its history (it can still be exported).</p>
          }
          confirmLabel="Discard"
          danger
          onAnswer={(yes) => {
            const d = discarding;
            setDiscarding(null);
            if (yes) discard(d);
          }}
        />
      ) : null}
    </>
  );
}

export function DraftsPage(props: { workspaceId: string }) {
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Drafts">
      <Drafts workspaceId={props.workspaceId} />
    </WorkspacePage>
  );
}
