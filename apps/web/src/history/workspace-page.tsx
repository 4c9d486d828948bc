import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { ModelInfo, Workspace } from "../api/types.ts";
import { onLinkClick } from "../app/router.ts";
import { refreshProfile, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { DraftCrumb } from "../drafts/draft-crumb.tsx";
import { markDraft } from "../drafts/draft-words.ts";
import { WorkspaceNav } from "./history-nav.tsx";

/**
 * The frame of a workspace's Activity and Versions pages: the workspace made active first (history routes answer
 * for the active workspace), its name in the title, the workspace's links.
 */
export function WorkspacePage(props: {
  workspaceId: string;
  heading: string;
  children: ComponentChildren;
  /** The page uses the window's width (the table view). */
  wide?: boolean;
}) {
  const { profile } = useStore(session);
  const [name, setName] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const ws = await api.post<Workspace>(`/api/workspaces/${encodeURIComponent(props.workspaceId)}/activate`);
      if (profile?.active_workspace_id !== props.workspaceId) await refreshProfile();
      // Whether it is a draft (its links offer its review instead of drafts of its own).
      const info = await api.get<ModelInfo>("/api");
      markDraft(props.workspaceId, info.draft ?? null);
      if (live) {
        setName(ws.name);
        setReady(true);
      }
    })().catch((err) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [props.workspaceId]);
  const title = (
    <span>
      <a href="/" onClick={onLinkClick} class="crumb">
        Workspaces
      </a>{" "}
      / <DraftCrumb workspaceId={props.workspaceId} />
      <strong>{name ?? "…"}</strong>
    </span>
  );
  return (
    <Shell title={title}>
      <main class={props.wide ? "page wide" : "page"} id="main">
        <WorkspaceNav workspaceId={props.workspaceId} />
        <h1>{props.heading}</h1>
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : ready ? (
          props.children
        ) : (
          <p class="loading" aria-busy="true">
            Loading…
          </p>
        )}
      </main>
    </Shell>
  );
}
