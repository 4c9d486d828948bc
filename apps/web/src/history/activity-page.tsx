import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import {
  type ChangeKind,
  type HistoryFilters,
  historyApi,
  type ViaKind,
  type WorkspaceChange,
} from "../api/history.ts";
import type { Member } from "../api/types.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { words } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { VIA_WORDS, viaWords, whenWords, whoWords } from "./change-words.ts";
import { usePagedHistory } from "./paged-history.ts";
import { WorkspacePage } from "./workspace-page.tsx";

const KINDS: ChangeKind[] = ["element", "relationship", "view", "node", "connection", "folder", "property_definition"];
const UNDELETABLE = new Set<ChangeKind>(["element", "relationship", "view"]);
const OP_WORDS = { create: "added", update: "changed", delete: "deleted" } as const;

function ChangeItem(props: { item: WorkspaceChange; editable: boolean; onUndelete(item: WorkspaceChange): void }) {
  const { item } = props;
  // Undelete is offered for what people delete (an element, relationship or view), not for a group that only dropped
  // a property value or a node along the way (a restore, an edit of a view).
  const deletes = item.objects.some((o) => o.op === "delete" && UNDELETABLE.has(o.kind));
  return (
    <li class="history-entry" data-revision={item.revision}>
      <p class="history-head">
        <strong>{item.summary}</strong>
      </p>
      <p class="muted small">
        <span class="who">{whoWords(item)}</span>, <time dateTime={item.created_at}>{whenWords(item.created_at)}</time>,
        via {viaWords(item)} · revision {item.revision}
      </p>
      <ul class="touched">
        {item.objects.map((o) => (
          <li key={`${o.kind}-${o.id}`}>
            {words(o.kind.replace(/_/g, " "))} <strong>{o.name ?? "(no name)"}</strong> {OP_WORDS[o.op]}
          </li>
        ))}
        {item.object_count > item.objects.length ? (
          <li class="muted">and {item.object_count - item.objects.length} more</li>
        ) : null}
      </ul>
      {item.detail_compacted ? (
        <p class="muted small">The detail of this change was removed by history retention; it cannot be undone.</p>
      ) : null}
      {props.editable && deletes && !item.detail_compacted ? (
        <button type="button" class="small" onClick={() => props.onUndelete(item)}>
          Undelete
        </button>
      ) : null}
    </li>
  );
}

/** What happened in a workspace, newest first, filtered by person, way in and object kind; older pages as you scroll. */
function Activity(props: { workspaceId: string }) {
  const { profile } = useStore(session);
  const editable = canEdit(profile);
  const [filters, setFilters] = useState<HistoryFilters>({ actor: "", via: "", kind: "" });
  const [people, setPeople] = useState<Member[]>([]);
  const [undeleting, setUndeleting] = useState<WorkspaceChange | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const org = activeMembership(profile)?.organization_id;
    if (org)
      api
        .get<Member[]>(`/api/organizations/${encodeURIComponent(org)}/members`)
        .then(setPeople)
        .catch(() => setPeople([]));
  }, []);

  const { items, next, loading, error, load } = usePagedHistory<WorkspaceChange>((before) =>
    historyApi.workspace(props.workspaceId, filters, before),
  );
  useEffect(() => {
    load();
  }, [filters.actor, filters.via, filters.kind]);

  // Infinite scroll: the next (older) page when the end of the list comes into sight.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || next === null) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !loading) load(next);
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [next, loading]);

  const undelete = async (item: WorkspaceChange) => {
    try {
      const result = await historyApi.revert(props.workspaceId, item.revision);
      notify(`Undone: ${item.summary} (${result.objects} objects back).`);
      await load();
    } catch (err) {
      notifyError(err);
    }
  };

  const set = (patch: Partial<HistoryFilters>) => setFilters({ ...filters, ...patch });
  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Person{" "}
          <select value={filters.actor} onChange={(e) => set({ actor: e.currentTarget.value })}>
            <option value="">Everyone</option>
            {people.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name || m.username}
              </option>
            ))}
          </select>
        </label>
        <label>
          Way in{" "}
          <select value={filters.via} onChange={(e) => set({ via: e.currentTarget.value as ViaKind | "" })}>
            <option value="">Any</option>
            {Object.entries(VIA_WORDS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Object kind{" "}
          <select value={filters.kind} onChange={(e) => set({ kind: e.currentTarget.value as ChangeKind | "" })}>
            <option value="">Any</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {words(k.replace(/_/g, " "))}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!loading && !error && items.length === 0 ? <p class="muted">No changes match.</p> : null}
      <ol class="history-list activity-list" aria-label="Changes">
        {items.map((item) => (
          <ChangeItem key={item.revision} item={item} editable={editable} onUndelete={setUndeleting} />
        ))}
      </ol>
      <div ref={sentinel} />
      {loading ? (
        <p class="loading" aria-busy="true">
          Loading…
        </p>
      ) : next !== null ? (
        <button type="button" onClick={() => load(next)}>
          Older changes
        </button>
      ) : null}
      {undeleting ? (
        <ConfirmDialog
          title="Undelete?"
          message={
            <p>
              “{undeleting.summary}” is undone as a new change: what it deleted comes back with the same identity,
              relationships and view nodes included.
            </p>
          }
          confirmLabel="Undelete"
          onAnswer={(yes) => {
            const item = undeleting;
            setUndeleting(null);
            if (yes) undelete(item);
          }}
        />
      ) : null}
    </>
  );
}

export function ActivityPage(props: { workspaceId: string }) {
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Activity">
      <Activity workspaceId={props.workspaceId} />
    </WorkspacePage>
  );
}
