import { useEffect, useState } from "preact/hooks";
import { type Draft, draftsApi, isOpen } from "../api/drafts.ts";
import { onLinkClick } from "../app/router.ts";
import { onChange } from "../live/live-store.ts";
import { changesWords, conflictsWords, markDraft } from "./draft-words.ts";

/** How often the banner looks again at the base (its changes make conflicts; the draft's own stream says nothing of them). */
const BASE_CHECK_MS = 30_000;

/**
 * Above a draft's modeler: "Draft 'Target 2027' of Car insurance claims — 23 changes, 2 conflicts with the current
 * model", with links to its review and its base. Counted again after each change the draft's live stream delivers
 * (this tab's and others') and every half minute for the base's.
 */
export function DraftBanner(props: { workspaceId: string }) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [conflicts, setConflicts] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const d = await draftsApi.get(props.workspaceId);
        const c = isOpen(d) && d.base_workspace_id ? (await draftsApi.conflicts(d.id)).conflicts.length : null;
        if (!live) return;
        markDraft(d.id, d);
        setDraft(d);
        setConflicts(c);
      } catch {
        // The banner is a summary: a failed count keeps the last one shown.
      }
    };
    load();
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 400);
    };
    const stop = onChange(soon);
    const every = setInterval(load, BASE_CHECK_MS);
    return () => {
      live = false;
      clearTimeout(timer);
      clearInterval(every);
      stop();
    };
  }, [props.workspaceId]);
  if (!draft) return null;
  const review = `/workspaces/${encodeURIComponent(draft.id)}/review`;
  const base = draft.base_workspace_id ? `/workspaces/${encodeURIComponent(draft.base_workspace_id)}` : null;
  const baseLink = base ? (
    <a href={base} onClick={onLinkClick}>
      {draft.base_name}
    </a>
  ) : (
    <strong>{draft.base_name}</strong>
  );
  return (
    <section class={`draft-banner${isOpen(draft) ? "" : " closed"}`} aria-label="Draft">
      <p>
        Draft <strong>“{draft.name}”</strong> of {baseLink} —{" "}
        <span class="draft-banner-changes">{changesWords(draft.changes)}</span>
        {conflicts !== null ? (
          <>
            ,{" "}
            <span class={conflicts ? "conflict-count" : undefined}>
              {conflictsWords(conflicts)} with the current model
            </span>
          </>
        ) : null}
        {isOpen(draft) ? null : <> · {draft.closed_reason ?? draft.state}: read-only</>}
      </p>
      <p class="draft-banner-links">
        <a href={review} onClick={onLinkClick}>
          {isOpen(draft) ? "Review and merge" : "Review"}
        </a>
        {base ? (
          <a href={base} onClick={onLinkClick}>
            Open {draft.base_name}
          </a>
        ) : null}
      </p>
    </section>
  );
}
