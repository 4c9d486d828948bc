import { useState } from "preact/hooks";
import { canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { CreateShareLink, ShareLinkList } from "./share-links.tsx";
import { WorkspacePage } from "./workspace-page.tsx";

/** A workspace's share links: a new link to the whole report, and every link that still works, to revoke. */
export function ShareLinksPage(props: { workspaceId: string }) {
  const { profile } = useStore(session);
  const [reload, setReload] = useState(0);
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Share links">
      {canEdit(profile) ? (
        <>
          <p>
            Read-only links for people without an account: the whole model as a report here, or one view from the
            modeler's Share button. They show the current model.
          </p>
          <CreateShareLink workspaceId={props.workspaceId} onCreated={() => setReload((n) => n + 1)} />
          <h2>Links</h2>
          <ShareLinkList workspaceId={props.workspaceId} reload={reload} />
        </>
      ) : (
        <p>Owners and editors share this workspace with links.</p>
      )}
    </WorkspacePage>
  );
}
