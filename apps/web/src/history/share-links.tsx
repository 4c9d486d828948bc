import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { type CreatedShareLink, type ShareLink, shareLinksApi } from "../api/share-links.ts";
import { CopyButton } from "../ui/copy.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { whenWords } from "./change-words.ts";

const what = (l: ShareLink) =>
  l.scope === "report" ? "The whole model (report)" : `View “${l.view_name ?? "deleted"}”`;

/** The form that creates a link (to `viewId` when given, else the report), then shows its URL this once. */
export function CreateShareLink(props: {
  workspaceId: string;
  viewId?: string | null;
  viewName?: string | null;
  onCreated(link: CreatedShareLink): void;
}) {
  const [scope, setScope] = useState<"view" | "report">(props.viewId ? "view" : "report");
  const [expires, setExpires] = useState("");
  const [frames, setFrames] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const link = await shareLinksApi.create(props.workspaceId, {
        scope,
        ...(scope === "view" && props.viewId ? { view_id: props.viewId } : {}),
        ...(expires ? { expires_at: new Date(`${expires}T23:59:59`).toISOString() } : {}),
        ...(frames.trim() ? { frame_ancestors: frames.trim() } : {}),
      });
      setCreated(link);
      setError(null);
      props.onCreated(link);
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="share-form" onSubmit={submit}>
      <fieldset class="share-scope share-wide">
        <legend>Share</legend>
        {props.viewId ? (
          <label class="share-choice">
            <input type="radio" name="share-scope" checked={scope === "view"} onChange={() => setScope("view")} /> This
            view{props.viewName ? ` (“${props.viewName}”)` : ""}
          </label>
        ) : null}
        <label class="share-choice">
          <input type="radio" name="share-scope" checked={scope === "report"} onChange={() => setScope("report")} /> The
          whole model as a report
        </label>
      </fieldset>
      <label for="share-expires">Expires after (optional)</label>
      <input id="share-expires" type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
      <label for="share-frames">May be embedded by (optional)</label>
      <input
        id="share-frames"
        value={frames}
        placeholder="https://wiki.example.com"
        aria-describedby="share-frames-hint"
        onInput={(e) => setFrames(e.currentTarget.value)}
      />
      <p id="share-frames-hint" class="muted share-wide">
        Sites whose pages may show the link in a frame (origins separated by spaces); empty: none.
      </p>
      <button type="submit" class="primary share-wide">
        Create link
      </button>
      <FormError error={error} />
      {created ? (
        <div class="share-created share-wide" role="status">
          <label for="share-url" class="share-created-label">
            Anyone with this link sees {created.scope === "view" ? "the view" : "the report"}, without an account. It is
            shown only now:
          </label>
          <input
            id="share-url"
            class="share-url"
            readOnly
            value={created.url}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton text={created.url} label="Copy link" />
        </div>
      ) : null}
    </form>
  );
}

/** The workspace's links that still work, each with Revoke. */
export function ShareLinkList(props: { workspaceId: string; reload: number }) {
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<ShareLink | null>(null);
  const load = () =>
    shareLinksApi
      .list(props.workspaceId)
      .then((l) => {
        setLinks(l);
        setError(null);
      })
      .catch((err) => setError(describeError(err)));
  useEffect(() => {
    load();
  }, [props.workspaceId, props.reload]);
  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (!links)
    return (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );
  if (links.length === 0) return <p class="muted">No share links.</p>;
  return (
    <>
      <table class="data-table share-links">
        <caption class="visually-hidden">Share links, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Shares</th>
            <th scope="col">Created</th>
            <th scope="col">By</th>
            <th scope="col">Expires</th>
            <th scope="col">Embeddable by</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {links.map((l) => (
            <tr key={l.id} data-link={l.id}>
              <td>{what(l)}</td>
              <td>{whenWords(l.created_at)}</td>
              <td>{l.created_by.name ?? "—"}</td>
              <td>{l.expires_at ? new Date(l.expires_at).toLocaleDateString() : "Never"}</td>
              <td>{l.frame_ancestors === "'none'" ? "No site" : l.frame_ancestors}</td>
              <td>
                <button type="button" class="small danger" onClick={() => setAsking(l)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {asking ? (
        <ConfirmDialog
          title="Revoke this link?"
          message={<p>{what(asking)}: whoever has the link sees “Not found” from now on.</p>}
          confirmLabel="Revoke"
          danger
          onAnswer={async (yes) => {
            const link = asking;
            setAsking(null);
            if (!yes) return;
            try {
              await shareLinksApi.revoke(props.workspaceId, link.id);
              notify("Link revoked.");
              await load();
            } catch (err) {
              notifyError(err);
            }
          }}
        />
      ) : null}
    </>
  );
}
