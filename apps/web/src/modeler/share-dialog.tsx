import { useState } from "preact/hooks";
import { onLinkClick } from "../app/router.ts";
import { CreateShareLink, ShareLinkList } from "../history/share-links.tsx";
import { Dialog } from "../ui/dialog.tsx";

/** The modeler's Share button: a read-only link to the open view or to the report, and the workspace's links. */
export function ShareButton(props: { workspaceId: string; viewId: string | null; viewName: string | null }) {
  const [open, setOpen] = useState(false);
  const [reload, setReload] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Share…
      </button>
      {open ? (
        <Dialog title="Share" wide onClose={() => setOpen(false)}>
          <CreateShareLink
            workspaceId={props.workspaceId}
            viewId={props.viewId}
            viewName={props.viewName}
            onCreated={() => setReload((n) => n + 1)}
          />
          <h3>Links of this workspace</h3>
          <ShareLinkList workspaceId={props.workspaceId} reload={reload} />
          <p>
            <a href={`/workspaces/${encodeURIComponent(props.workspaceId)}/share-links`} onClick={onLinkClick}>
              All share links
            </a>
          </p>
        </Dialog>
      ) : null}
    </>
  );
}
