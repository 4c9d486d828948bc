import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import {
  type DraftComment,
  type DraftConflict,
  type DraftDetail,
  type DraftReview,
  draftsApi,
  isOpen,
  type MergeResult,
} from "../api/drafts.ts";
import type { FieldChange, ModelDiff } from "../api/history.ts";
import { onLinkClick } from "../app/router.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { whenWords } from "../history/change-words.ts";
import { FieldChanges } from "../history/field-changes.tsx";
import { WorkspacePage } from "../history/workspace-page.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError, words } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { ConflictValues } from "./conflict-values.tsx";
import { approvalsWords, authorWords, changesWords, conflictsWords, markDraft, STATE_WORDS } from "./draft-words.ts";
import { capital, conflictObject, kindWords, MergeDialog } from "./merge-dialog.tsx";

/** One changed object of the draft, as the review lists it. */
type Changed = {
  id: string;
  kind: string;
  name: string | null;
  type: string | null;
  op: "added" | "removed" | "changed";
  fields: FieldChange[];
  /** A view's layout changes, in words. */
  lines: string[];
};

const ws = (id: string) => `/workspaces/${encodeURIComponent(id)}`;
const named = (c: Pick<Changed, "kind" | "name" | "id">) => `${kindWords(c.kind)} “${c.name ?? "(no name)"}”`;
/** "Application Component “CRM”"; an unnamed relationship as "Serving relationship". */
function changedWords(c: Changed): string {
  if (!c.type) return named(c);
  if (c.kind === "relationship" && !c.name) return `${words(c.type)} relationship`;
  return `${words(c.type)} “${c.name ?? "(no name)"}”`;
}

/** The views the draft changed: their own fields, and their nodes and connections added, removed, moved or changed. */
function viewChanges(d: ModelDiff): Changed[] {
  const out = new Map<string, Changed>();
  const put = (id: string, name: string | null, op: Changed["op"], fields: FieldChange[] = []) =>
    out.set(id, { id, kind: "view", name, type: null, op, fields, lines: [] });
  for (const v of d.views.added) put(v.id, v.name, "added");
  for (const v of d.views.removed) put(v.id, v.name, "removed");
  for (const v of d.views.changed) put(v.id, v.name, "changed", v.fields);
  for (const v of d.view_layouts) {
    const item = out.get(v.view_id) ?? put(v.view_id, v.name, "changed").get(v.view_id);
    if (!item) continue;
    const { nodes, connections } = v;
    const label = (l: string | null) => `“${l ?? "(no name)"}”`;
    item.lines.push(
      ...nodes.added.map((n) => `Node ${label(n.label)} added`),
      ...nodes.removed.map((n) => `Node ${label(n.label)} removed`),
      ...nodes.moved.map(
        (n) => `Node ${label(n.label)} moved (${n.before.x}, ${n.before.y}) → (${n.after.x}, ${n.after.y})`,
      ),
      ...nodes.resized.map(
        (n) => `Node ${label(n.label)} resized ${n.before.w}×${n.before.h} → ${n.after.w}×${n.after.h}`,
      ),
      ...nodes.changed.map((n) => `Node ${label(n.label)} changed`),
      ...connections.added.map((c) => `Connection ${label(c.label)} added`),
      ...connections.removed.map((c) => `Connection ${label(c.label)} removed`),
      ...connections.changed.map((c) => `Connection ${label(c.label)} changed`),
    );
  }
  return [...out.values()];
}

/** The model's objects the draft changed, elements first. */
function objectChanges(d: ModelDiff): Changed[] {
  const out: Changed[] = [];
  const kinds: [string, ModelDiff["elements"]][] = [
    ["element", d.elements],
    ["relationship", d.relationships],
    ["property_definition", d.property_definitions],
    ["folder", d.folders],
  ];
  for (const [kind, k] of kinds) {
    for (const o of k.added) out.push({ ...o, kind, op: "added", fields: [], lines: [] });
    for (const o of k.removed) out.push({ ...o, kind, op: "removed", fields: [], lines: [] });
    for (const o of k.changed) out.push({ ...o, kind, op: "changed", lines: [] });
  }
  if (d.model.length)
    out.push({ id: "model", kind: "model", name: "Model", type: null, op: "changed", fields: d.model, lines: [] });
  return out;
}

/** The draft's changes of a view drawn by the server: the view in the draft, marked against the fork. */
function ViewPicture(props: { draftId: string; revision: number; view: Changed }) {
  const query = new URLSearchParams({ format: "svg", from: "0", to: String(props.revision) });
  return (
    <figure class="diff-picture">
      <img
        src={`/api/views/${encodeURIComponent(props.view.id)}/diff-image?${query}`}
        alt={`View “${props.view.name ?? "(no name)"}” with the draft's changes marked: added green, removed red, changed or moved amber`}
        loading="lazy"
      />
    </figure>
  );
}

function CommentForm(props: { label: string; id: string; onSend(text: string): Promise<void> }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await props.onSend(text);
      setText("");
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="comment-form" onSubmit={submit}>
      <label for={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        rows={2}
        required
        maxLength={10_000}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit">Comment</button>
      <FormError error={error} />
    </form>
  );
}

function CommentList(props: { comments: DraftComment[] }) {
  if (props.comments.length === 0) return null;
  return (
    <ul class="comment-list">
      {props.comments.map((c) => (
        <li key={c.id}>
          <strong>{c.author.name ?? "A former member"}</strong>{" "}
          <time class="muted small" dateTime={c.created_at}>
            {whenWords(c.created_at)}
          </time>
          <p>{c.text}</p>
        </li>
      ))}
    </ul>
  );
}

function ChangeItem(props: {
  change: Changed;
  draft: DraftDetail;
  conflicts: DraftConflict[];
  open: boolean;
  writable: boolean;
  onComment(text: string, objectId: string): Promise<void>;
}) {
  const { change: c, draft } = props;
  const comments = draft.comments.filter((m) => m.object_id === c.id);
  const what = changedWords(c);
  const opWords = { added: "Added", removed: "Removed", changed: "Changed" }[c.op];
  return (
    <li class={`change-item diff-${c.op}`} data-object={c.id}>
      <details open={props.open}>
        <summary>
          <span class="change-op">{opWords}</span> {what}
          {c.fields.length ? (
            <span class="muted"> · {c.fields.map((f) => f.field.replace(/_/g, " ")).join(", ")}</span>
          ) : null}
          {c.lines.length ? <span class="muted"> · {c.lines.length} in the layout</span> : null}
          {props.conflicts.length ? <span class="role-badge conflict-badge">conflict</span> : null}
          {comments.length ? (
            <span class="muted">
              {" "}
              · {comments.length} comment{comments.length === 1 ? "" : "s"}
            </span>
          ) : null}
        </summary>
        <div class="change-body">
          <FieldChanges fields={c.fields} />
          {c.lines.length ? (
            <ul class="part-changes">
              {c.lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          ) : null}
          {c.kind === "view" && c.op !== "removed" ? (
            <ViewPicture draftId={draft.id} revision={draft.revision} view={c} />
          ) : null}
          {props.conflicts.map((k) => (
            <p key={k.key} class="small conflict-note">
              Conflict: {k.message}
            </p>
          ))}
          <CommentList comments={comments} />
          {props.writable && c.kind !== "model" ? (
            <CommentForm
              id={`comment-${c.id}`}
              label={`Comment on ${what}`}
              onSend={(text) => props.onComment(text, c.id)}
            />
          ) : null}
        </div>
      </details>
    </li>
  );
}

function ReviewForm(props: {
  author: boolean;
  onReview(decision: DraftReview["decision"], comment: string): Promise<void>;
}) {
  const [decision, setDecision] = useState<DraftReview["decision"]>("approve");
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await props.onReview(decision, comment);
      setComment("");
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="review-form card" onSubmit={submit} aria-labelledby="review-title">
      <h3 id="review-title">Your review</h3>
      <fieldset>
        <legend class="visually-hidden">Decision</legend>
        <label class="radio">
          <input
            type="radio"
            name="decision"
            checked={decision === "approve"}
            onChange={() => setDecision("approve")}
          />
          Approve
        </label>
        <label class="radio">
          <input
            type="radio"
            name="decision"
            checked={decision === "request_changes"}
            onChange={() => setDecision("request_changes")}
          />
          Request changes
        </label>
      </fieldset>
      <div class="field">
        <label for="review-comment">Comment</label>
        <textarea
          id="review-comment"
          rows={2}
          maxLength={10_000}
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
      </div>
      {props.author ? <p class="muted small">Your own approval does not count toward the approvals required.</p> : null}
      <button type="submit" class="primary">
        {decision === "approve" ? "Approve" : "Request changes"}
      </button>
      <FormError error={error} />
    </form>
  );
}

/** Reviews and comments on the draft, oldest first, as one conversation. */
function Discussion(props: { draft: DraftDetail; names: Map<string, string> }) {
  type Entry = { at: string; key: string; who: string; what: string; text: string };
  const entries: Entry[] = [
    ...props.draft.reviews.map((r) => ({
      at: r.created_at,
      key: r.id,
      who: r.reviewer.name ?? "A former member",
      what: r.decision === "approve" ? "approved" : "requested changes",
      text: r.comment,
    })),
    ...props.draft.comments.map((c) => ({
      at: c.created_at,
      key: c.id,
      who: c.author.name ?? "A former member",
      what: c.object_id ? `commented on ${props.names.get(c.object_id) ?? "a changed object"}` : "commented",
      text: c.text,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (entries.length === 0) return <p class="muted">No reviews or comments yet.</p>;
  return (
    <ol class="history-list discussion" aria-label="Reviews and comments">
      {entries.map((e) => (
        <li key={e.key} class="history-entry">
          <p>
            <strong>{e.who}</strong> {e.what}, <time dateTime={e.at}>{whenWords(e.at)}</time>
          </p>
          {e.text ? <p>{e.text}</p> : null}
        </li>
      ))}
    </ol>
  );
}

function Review(props: { draftId: string }) {
  const { profile } = useStore(session);
  const editor = canEdit(profile);
  const owner = ["owner", "admin"].includes(activeMembership(profile)?.role ?? "");
  const [draft, setDraft] = useState<DraftDetail | null>(null);
  const [changes, setChanges] = useState<ModelDiff | null>(null);
  const [conflicts, setConflicts] = useState<DraftConflict[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [merging, setMerging] = useState(false);
  const [discarding, setDiscarding] = useState(false);

  const load = async () => {
    try {
      const [detail, diff] = await Promise.all([draftsApi.get(props.draftId), draftsApi.changes(props.draftId)]);
      const open = isOpen(detail) && detail.base_workspace_id;
      // Shown together: a change is never drawn without its conflict mark.
      const list = open ? (await draftsApi.conflicts(detail.id)).conflicts : [];
      markDraft(detail.id, detail);
      setDraft(detail);
      setChanges(diff);
      setConflicts(list);
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => {
    load();
  }, [props.draftId]);

  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (!draft || !changes)
    return (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );

  const open = isOpen(draft);
  const writable = open && editor;
  const views = viewChanges(changes);
  const objects = objectChanges(changes);
  const names = new Map<string, string>();
  for (const c of [...views, ...objects]) names.set(c.id, changedWords(c));
  const conflictsOf = (id: string) => conflicts.filter((k) => k.id === id);
  const author = draft.author.id === profile?.id;
  const needsApprovals = draft.approvals < draft.approvals_required;

  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      notify(done);
      await load();
    } catch (err) {
      notifyError(err);
    }
  };
  const comment = (text: string, objectId: string | null) =>
    draftsApi.comment(draft.id, text, objectId).then(() => load());
  const merged = (result: MergeResult) => {
    setMerging(false);
    notify(`${result.summary}: ${result.objects} objects changed in ${draft.base_name}.`);
    load();
  };

  return (
    <>
      <section class="card draft-summary" aria-labelledby="draft-title">
        <h2 id="draft-title">
          {draft.name} <span class={`role-badge state-badge state-${draft.state}`}>{STATE_WORDS[draft.state]}</span>
        </h2>
        <p>
          Draft of{" "}
          {draft.base_workspace_id ? (
            <a href={ws(draft.base_workspace_id)} onClick={onLinkClick}>
              {draft.base_name}
            </a>
          ) : (
            <strong>{draft.base_name}</strong>
          )}
          , forked at its revision {draft.base_revision} · {authorWords(draft)},{" "}
          <time dateTime={draft.created_at}>{whenWords(draft.created_at)}</time>
        </p>
        {draft.description ? <p class="draft-description">{draft.description}</p> : null}
        <p class="draft-counts">
          {changesWords(draft.changes)} · {approvalsWords(draft)}
          {draft.changes_requested ? ` · ${draft.changes_requested} asked for changes` : ""}
          {open ? (
            <>
              {" · "}
              {conflicts.length ? (
                <a href="#conflicts" class="conflict-count">
                  {conflictsWords(conflicts.length)} with the current model
                </a>
              ) : (
                "no conflicts with the current model"
              )}
            </>
          ) : null}
        </p>
        {!open ? (
          <p class="closed-note" role="status">
            {draft.closed_reason ?? `This draft is ${draft.state}`}: it is read-only.{" "}
            {draft.state === "merged" && draft.base_workspace_id ? (
              <a href={`${ws(draft.base_workspace_id)}/activity`} onClick={onLinkClick}>
                See the merge in the activity of {draft.base_name}
              </a>
            ) : null}
          </p>
        ) : null}
        <div class="row-actions draft-actions">
          <a class="button" href={ws(draft.id)} onClick={onLinkClick}>
            {open && editor ? "Open in the modeler" : "View in the modeler"}
          </a>
          {writable && draft.state === "open" ? (
            <button
              type="button"
              onClick={() => act(() => draftsApi.submit(draft.id), `“${draft.name}” is ready for review.`)}
            >
              Submit for review
            </button>
          ) : null}
          {writable ? (
            <button type="button" class="primary" disabled={needsApprovals} onClick={() => setMerging(true)}>
              Merge…
            </button>
          ) : null}
          {writable && (author || owner) ? (
            <button type="button" class="danger" onClick={() => setDiscarding(true)}>
              Discard
            </button>
          ) : null}
        </div>
        {writable && needsApprovals ? (
          <p class="muted small">
            Merging needs {draft.approvals_required} approval{draft.approvals_required === 1 ? "" : "s"} from owners or
            editors other than its author; it has {draft.approvals}.
          </p>
        ) : null}
      </section>

      {open && conflicts.length ? (
        <section id="conflicts" aria-labelledby="conflicts-title" class="draft-conflicts">
          <h2 id="conflicts-title">Conflicts with the current model</h2>
          <p>
            {draft.base_name} changed since the fork in ways that meet the draft's changes. The merge asks what to keep
            for each.
          </p>
          <ul class="conflict-list">
            {conflicts.map((c) => (
              <li key={c.key} class="conflict" data-conflict={c.key}>
                <p>
                  <strong>{capital(conflictObject(c))}</strong>
                  {c.field ? <> · {c.field.replace(/_/g, " ")}</> : null}
                </p>
                <ConflictValues conflict={c} baseName={draft.base_name} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="changes-title">
        <h2 id="changes-title">Changes</h2>
        {views.length + objects.length === 0 ? <p class="empty">The draft has no changes yet.</p> : null}
        {views.length ? (
          <>
            <h3 id="view-changes">By view</h3>
            <ul class="change-list" aria-labelledby="view-changes">
              {views.map((c) => (
                <ChangeItem
                  key={c.id}
                  change={c}
                  draft={draft}
                  conflicts={conflictsOf(c.id)}
                  open
                  writable={writable}
                  onComment={comment}
                />
              ))}
            </ul>
          </>
        ) : null}
        {objects.length ? (
          <>
            <h3 id="object-changes">By object</h3>
            <ul class="change-list" aria-labelledby="object-changes">
              {objects.map((c) => (
                <ChangeItem
                  key={`${c.kind}-${c.id}`}
                  change={c}
                  draft={draft}
                  conflicts={conflictsOf(c.id)}
                  open={false}
                  writable={writable}
                  onComment={comment}
                />
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <section aria-labelledby="discussion-title">
        <h2 id="discussion-title">Reviews and comments</h2>
        <Discussion draft={draft} names={names} />
        {writable ? (
          <div class="review-forms">
            <ReviewForm
              author={author}
              onReview={(decision, text) =>
                draftsApi.review(draft.id, decision, text).then(() => {
                  notify(
                    decision === "approve"
                      ? `You approved “${draft.name}”.`
                      : `You asked for changes to “${draft.name}”.`,
                  );
                  return load();
                })
              }
            />
            <CommentForm id="comment-draft" label="Comment on the draft" onSend={(text) => comment(text, null)} />
          </div>
        ) : null}
      </section>

      {merging ? <MergeDialog draft={draft} names={names} onClose={() => setMerging(false)} onMerged={merged} /> : null}
      {discarding ? (
        <ConfirmDialog
          title={`Discard “${draft.name}”?`}
          message={<p>Its changes are not merged. The draft stays, read-only, with its history.</p>}
          confirmLabel="Discard"
          danger
          onAnswer={(yes) => {
            setDiscarding(false);
            if (yes) act(() => draftsApi.discard(draft.id), `Draft “${draft.name}” discarded.`);
          }}
        />
      ) : null}
    </>
  );
}

/** A draft's review: its changes by view and by object, conflicts, reviews and comments, submit, merge, discard. */
export function ReviewPage(props: { workspaceId: string }) {
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Review">
      <Review draftId={props.workspaceId} />
    </WorkspacePage>
  );
}
