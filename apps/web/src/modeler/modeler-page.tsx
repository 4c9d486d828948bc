import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Workspace } from "../api/types.ts";
import { onLinkClick, queryParam } from "../app/router.ts";
import { canEdit, refreshProfile, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { ViewEditor } from "../canvas/view-editor.tsx";
import { DraftBanner } from "../drafts/draft-banner.tsx";
import { DraftCrumb } from "../drafts/draft-crumb.tsx";
import { closedDraft, markDraft } from "../drafts/draft-words.ts";
import { WorkspaceNav } from "../history/history-nav.tsx";
import { applyLiveChanges } from "../live/apply-changes.ts";
import { PresenceAvatars } from "../live/avatars.tsx";
import { startLive } from "../live/live-store.ts";
import { ElementContextMenu } from "./element-menu.tsx";
import { loadModel, model, openView, select } from "./model-store.ts";
import { ModelTree } from "./model-tree.tsx";
import { ProblemsPanel, useValidation } from "./problems-panel.tsx";
import { PropertiesPanel } from "./properties-panel.tsx";
import { ShareButton } from "./share-dialog.tsx";
import { TransferMenu } from "./transfer-menu.tsx";
import { ViewsPanel } from "./views-panel.tsx";

/** The modeler: model tree and views on the left, the open view's canvas in the middle, properties on the right. */
export function ModelerPage(props: { workspaceId: string }) {
  const { profile } = useStore(session);
  const state = useStore(model);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<"model" | "views" | "problems">("model");
  // On a narrow screen the model browser is folded away so the diagram comes first; a view chosen in it folds it again.
  const [browserOpen, setBrowserOpen] = useState(false);
  useEffect(() => setBrowserOpen(false), [state.openViewId]);
  const draft = state.workspaceId === props.workspaceId ? state.info?.draft : undefined;
  // A merged, discarded or closed draft is read-only (the server refuses its writes; the UI offers none).
  const editable = canEdit(profile) && !closedDraft(draft);
  useEffect(() => {
    if (draft !== undefined) markDraft(props.workspaceId, draft);
  }, [draft, props.workspaceId]);

  // Live collaboration: once the model is loaded, the workspace's events and who else has it open.
  const loaded = state.workspaceId === props.workspaceId && !state.loading;
  const problems = useValidation(props.workspaceId, loaded);
  const problemCount = problems.result ? problems.result.counts.error + problems.result.counts.warning : null;
  useEffect(() => {
    if (!loaded) return;
    const stopApplying = applyLiveChanges(session.get().profile?.id ?? null);
    const stopLive = startLive(props.workspaceId);
    return () => {
      stopLive();
      stopApplying();
    };
  }, [loaded, props.workspaceId]);

  useEffect(() => {
    let live = true;
    setError(null);
    (async () => {
      // Model routes work on the active workspace: opening one makes it active (and its organization).
      if (profile?.active_workspace_id !== props.workspaceId) {
        await api.post<Workspace>(`/api/workspaces/${encodeURIComponent(props.workspaceId)}/activate`);
        await refreshProfile();
      }
      await loadModel(props.workspaceId);
      const wanted = queryParam("view");
      const views = model.get().views;
      if (live) openView(wanted && views.some((v) => v.id === wanted) ? wanted : (views[0]?.id ?? null));
      // "Open in modeler" from the graph explorer: the element is selected, its properties shown.
      const element = queryParam("element");
      if (live && element && model.get().elements.has(element)) select({ kind: "element", id: element });
    })().catch((err) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [props.workspaceId]);

  const ws = state.info?.workspace;
  const title = ws ? (
    <span>
      <a href="/" onClick={onLinkClick} class="crumb">
        Workspaces
      </a>{" "}
      / <strong>{ws.name}</strong>
      <DraftCrumb workspaceId={props.workspaceId} badgeOnly />
      {editable ? null : <span class="role-badge">read-only</span>}
    </span>
  ) : null;

  return (
    <Shell
      title={title}
      // Kept while the model reloads after an import: its dialog then shows the import's warnings.
      actions={
        <>
          <PresenceAvatars label="Also in this workspace" max={3} />
          <WorkspaceNav workspaceId={props.workspaceId} />
          {state.workspaceId === props.workspaceId ? <TransferMenu editable={editable} /> : null}
          {state.workspaceId === props.workspaceId && editable && !draft ? (
            <ShareButton
              workspaceId={props.workspaceId}
              viewId={state.openViewId}
              viewName={state.views.find((v) => v.id === state.openViewId)?.name ?? null}
            />
          ) : null}
        </>
      }
    >
      {error ? (
        <main class="page narrow" id="main">
          <h1>This workspace cannot be opened</h1>
          <p class="form-error" role="alert">
            {error}
          </p>
          <p>
            <a href="/" onClick={onLinkClick}>
              Back to your workspaces
            </a>
          </p>
        </main>
      ) : state.loading || state.workspaceId !== props.workspaceId ? (
        <p class="loading" aria-busy="true">
          Loading the model…
        </p>
      ) : (
        <>
          {draft ? <DraftBanner workspaceId={props.workspaceId} /> : null}
          <main class="modeler" id="main">
            <button
              type="button"
              class="browser-toggle"
              aria-expanded={browserOpen}
              aria-controls="model-browser"
              onClick={() => setBrowserOpen(!browserOpen)}
            >
              <span aria-hidden="true">{browserOpen ? "▾" : "▸"}</span> Model browser: {state.elements.size} elements,{" "}
              {state.views.length} views
            </button>
            <aside class={browserOpen ? "sidebar open" : "sidebar"} id="model-browser" aria-label="Model browser">
              <div class="tabs" role="tablist" aria-label="Model browser">
                <button
                  type="button"
                  role="tab"
                  id="tab-model"
                  aria-selected={tab === "model"}
                  aria-controls="panel-model"
                  onClick={() => setTab("model")}
                >
                  Model ({state.elements.size})
                </button>
                <button
                  type="button"
                  role="tab"
                  id="tab-views"
                  aria-selected={tab === "views"}
                  aria-controls="panel-views"
                  onClick={() => setTab("views")}
                >
                  Views ({state.views.length})
                </button>
                <button
                  type="button"
                  role="tab"
                  id="tab-problems"
                  aria-selected={tab === "problems"}
                  aria-controls="panel-problems"
                  onClick={() => {
                    setTab("problems");
                    problems.run();
                  }}
                >
                  Problems{" "}
                  <span
                    class={`count-badge${problems.result?.counts.error ? " has-errors" : ""}`}
                    title="Errors and warnings"
                  >
                    {problemCount ?? "…"}
                  </span>
                </button>
              </div>
              <div
                id="panel-model"
                role="tabpanel"
                aria-labelledby="tab-model"
                hidden={tab !== "model"}
                class="tab-panel"
              >
                <ModelTree editable={editable} />
              </div>
              <div
                id="panel-views"
                role="tabpanel"
                aria-labelledby="tab-views"
                hidden={tab !== "views"}
                class="tab-panel"
              >
                <ViewsPanel editable={editable} />
              </div>
              <div
                id="panel-problems"
                role="tabpanel"
                aria-labelledby="tab-problems"
                hidden={tab !== "problems"}
                class="tab-panel"
              >
                <ProblemsPanel
                  workspaceId={props.workspaceId}
                  result={problems.result}
                  error={problems.error}
                  running={problems.running}
                  onRun={problems.run}
                />
              </div>
            </aside>
            <section class="workarea" aria-label="View">
              {state.openViewId ? <PresenceAvatars viewId={state.openViewId} label="Also on this view" /> : null}
              {state.openViewId ? (
                <ViewEditor viewId={state.openViewId} readOnly={!editable} />
              ) : (
                <div class="empty-work">
                  <p>{state.views.length ? "Choose a view to open it." : "This model has no views yet."}</p>
                  {editable ? <p>Create a view in the Views tab, then drag elements onto it.</p> : null}
                </div>
              )}
            </section>
            <PropertiesPanel editable={editable} />
            <ElementContextMenu />
          </main>
        </>
      )}
    </Shell>
  );
}
