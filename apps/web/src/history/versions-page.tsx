import { useEffect, useState } from "preact/hooks";
import { describeError } from "../api/client.ts";
import { historyApi, type ModelDiff, type Version } from "../api/history.ts";
import { activeMembership, canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { whenWords } from "./change-words.ts";
import { DiffView } from "./diff-view.tsx";
import { WorkspacePage } from "./workspace-page.tsx";

function CreateVersion(props: { workspaceId: string; onCreated(): void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await historyApi.createVersion(props.workspaceId, name, null);
      setName("");
      setError(null);
      notify(`Version “${name.trim()}” created.`);
      props.onCreated();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <form class="inline-form" onSubmit={submit}>
      <label for="version-name">New version's name</label>
      <input id="version-name" value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
      <button type="submit" class="primary">
        Create version
      </button>
      <FormError error={error} />
    </form>
  );
}

function Compare(props: { workspaceId: string; versions: Version[] }) {
  const [from, setFrom] = useState(props.versions[0]?.id ?? "");
  const [to, setTo] = useState("current");
  const [diff, setDiff] = useState<ModelDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const compare = async (e: Event) => {
    e.preventDefault();
    try {
      setDiff(await historyApi.diff(props.workspaceId, from, to));
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  const options = (withCurrent: boolean) => (
    <>
      {withCurrent ? <option value="current">Current state</option> : null}
      {props.versions.map((v) => (
        <option key={v.id} value={v.id}>
          {v.name} (revision {v.revision})
        </option>
      ))}
    </>
  );
  return (
    <section aria-labelledby="compare-title">
      <h2 id="compare-title">Compare</h2>
      <form class="filters" onSubmit={compare}>
        <label>
          From{" "}
          <select value={from} onChange={(e) => setFrom(e.currentTarget.value)}>
            {options(true)}
          </select>
        </label>
        <label>
          To{" "}
          <select value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {options(true)}
          </select>
        </label>
        <button type="submit">Compare</button>
      </form>
      <FormError error={error} />
      {diff ? <DiffView diff={diff} /> : null}
    </section>
  );
}

function Versions(props: { workspaceId: string }) {
  const { profile } = useStore(session);
  const editable = canEdit(profile);
  const owner = activeMembership(profile)?.role === "owner";
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ what: "restore" | "delete"; version: Version } | null>(null);
  const load = () =>
    historyApi
      .versions(props.workspaceId)
      .then((v) => {
        setVersions(v);
        setError(null);
      })
      .catch((err) => setError(describeError(err)));
  useEffect(() => {
    load();
  }, [props.workspaceId]);

  const act = async (what: "restore" | "delete", v: Version) => {
    try {
      if (what === "restore") {
        const result = await historyApi.restoreVersion(props.workspaceId, v.id);
        notify(`Restored “${v.name}” (${result.objects} objects changed; the state before was kept as a version).`);
      } else {
        await historyApi.deleteVersion(props.workspaceId, v.id);
        notify(`Version “${v.name}” deleted.`);
      }
      await load();
    } catch (err) {
      notifyError(err);
    }
  };

  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (!versions)
    return (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );
  return (
    <>
      {editable ? <CreateVersion workspaceId={props.workspaceId} onCreated={load} /> : null}
      {versions.length === 0 ? (
        <p class="muted">No versions yet.</p>
      ) : (
        <table class="data-table">
          <caption class="visually-hidden">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Revision</th>
              <th scope="col">Created</th>
              <th scope="col">By</th>
              <th scope="col">Export</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.id} data-version={v.name}>
                <td>
                  {v.name}
                  {v.automatic ? <span class="role-badge">automatic</span> : null}
                </td>
                <td>{v.revision}</td>
                <td>{whenWords(v.created_at)}</td>
                <td>{v.created_by.name ?? "the system"}</td>
                <td class="export-links">
                  <a
                    href={`/api/export?version=${encodeURIComponent(v.id)}`}
                    download
                    aria-label={`Export “${v.name}” as Open Exchange XML`}
                  >
                    XML
                  </a>{" "}
                  <a
                    href={`/api/export/zip?version=${encodeURIComponent(v.id)}`}
                    download
                    aria-label={`Export “${v.name}” as ZIP (XML and one SVG per view)`}
                  >
                    ZIP
                  </a>
                </td>
                <td>
                  {editable ? (
                    <button type="button" class="small" onClick={() => setAsking({ what: "restore", version: v })}>
                      Restore
                    </button>
                  ) : null}
                  {owner ? (
                    <button
                      type="button"
                      class="small danger"
                      onClick={() => setAsking({ what: "delete", version: v })}
                    >
                      Delete
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {versions.length ? <Compare workspaceId={props.workspaceId} versions={versions} /> : null}
      {asking ? (
        <ConfirmDialog
          title={asking.what === "restore" ? `Restore “${asking.version.name}”?` : `Delete “${asking.version.name}”?`}
          message={
            <p>
              {asking.what === "restore"
                ? "The whole workspace goes back to this version, as one new change. The current state is kept as an automatic version first."
                : "The version's name goes; the history it named stays."}
            </p>
          }
          confirmLabel={asking.what === "restore" ? "Restore" : "Delete"}
          danger={asking.what === "delete"}
          onAnswer={(yes) => {
            const a = asking;
            setAsking(null);
            if (yes) act(a.what, a.version);
          }}
        />
      ) : null}
    </>
  );
}

export function VersionsPage(props: { workspaceId: string }) {
  return (
    <WorkspacePage workspaceId={props.workspaceId} heading="Versions">
      <Versions workspaceId={props.workspaceId} />
    </WorkspacePage>
  );
}
