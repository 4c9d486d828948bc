import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { Member, PlatformOrganization } from "../api/types.ts";
import { onLinkClick } from "../app/router.ts";
import { AddMemberForm, MemberList } from "../organization/members.tsx";
import { formatDate } from "../ui/copy.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";

const orgPath = (id: string) => `/api/platform/organizations/${encodeURIComponent(id)}`;

function CreateOrganizationDialog(props: { onClose: () => void; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [owner, setOwner] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const org = await api.post<PlatformOrganization>("/api/platform/organizations", {
        name: name.trim(),
        ...(owner.trim() ? { owner_username: owner.trim() } : {}),
      });
      notify(`Organization ${org.name} created.`);
      props.onCreated();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="New organization" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <div class="field">
          <label for="new-org-name">Name</label>
          <input
            id="new-org-name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="new-org-owner">First owner's username (optional)</label>
          <input id="new-org-owner" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
          <p class="hint">An existing account; the owner then invites the others.</p>
        </div>
        <FormError error={error} />
        <footer class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Create organization
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

function RenameOrganizationDialog(props: { org: PlatformOrganization; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(props.org.name);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api.put(orgPath(props.org.id), { name: name.trim() });
      props.onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="Rename organization" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <div class="field">
          <label for="rename-org">Name</label>
          <input id="rename-org" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <FormError error={error} />
        <footer class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Save
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

/** Deleting removes every workspace of the organization: the name must be typed to confirm. */
function DeleteOrganizationDialog(props: { org: PlatformOrganization; onClose: () => void; onDeleted: () => void }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      await api.del(orgPath(props.org.id));
      notify(`Organization ${props.org.name} deleted.`);
      props.onDeleted();
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <Dialog title="Delete organization" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <p>
          This deletes <strong>{props.org.name}</strong> with all its workspaces, models, views, dashboards, members and
          API tokens. It cannot be undone.
        </p>
        <div class="field">
          <label for="delete-org-confirm">Type the organization's name to confirm</label>
          <input
            id="delete-org-confirm"
            autocomplete="off"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </div>
        <FormError error={error} />
        <footer class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="danger" disabled={typed !== props.org.name}>
            Delete organization
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

/** Every organization's metadata (never its content): create, rename, suspend, reactivate, delete. */
export function PlatformOrganizations() {
  const [list, setList] = useState<PlatformOrganization[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<PlatformOrganization | null>(null);
  const [deleting, setDeleting] = useState<PlatformOrganization | null>(null);
  const [query, setQuery] = useState("");
  const load = () =>
    api
      .get<PlatformOrganization[]>("/api/platform/organizations")
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  useEffect(() => {
    load();
  }, []);

  const setEnabled = async (org: PlatformOrganization, enabled: boolean) => {
    try {
      await api.put(orgPath(org.id), { enabled });
      notify(
        enabled
          ? `${org.name} is active again; its members can work in it.`
          : `${org.name} is suspended; its members are refused until it is reactivated.`,
      );
      load();
    } catch (err) {
      notifyError(err);
    }
  };
  const q = query.trim().toLowerCase();
  const shown = (list ?? []).filter((o) => !q || o.name.toLowerCase().includes(q) || o.slug.includes(q));

  return (
    <section aria-labelledby="orgs-title">
      <div class="page-head">
        <h2 id="orgs-title">Organizations</h2>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New organization
        </button>
      </div>
      <div class="field search-field">
        <label for="org-search">Search organizations</label>
        <input id="org-search" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </div>
      {list === null ? (
        <p aria-busy="true">Loading organizations…</p>
      ) : (
        <table class="table data-table" aria-label="Organizations">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Slug</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((o) => (
              <tr key={o.id} data-org={o.name}>
                <td>
                  <a href={`/platform/organizations/${encodeURIComponent(o.id)}`} onClick={onLinkClick}>
                    {o.name}
                  </a>
                </td>
                <td>
                  <code>{o.slug}</code>
                </td>
                <td>{o.enabled ? "active" : <span class="status-off">suspended</span>}</td>
                <td>{formatDate(o.created_at)}</td>
                <td class="row-actions">
                  <button type="button" onClick={() => setRenaming(o)} aria-label={`Rename ${o.name}`}>
                    Rename
                  </button>
                  {o.enabled ? (
                    <button type="button" onClick={() => setEnabled(o, false)} aria-label={`Suspend ${o.name}`}>
                      Suspend
                    </button>
                  ) : (
                    <button type="button" onClick={() => setEnabled(o, true)} aria-label={`Reactivate ${o.name}`}>
                      Reactivate
                    </button>
                  )}
                  <button type="button" class="danger" onClick={() => setDeleting(o)} aria-label={`Delete ${o.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {creating ? (
        <CreateOrganizationDialog
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            load();
          }}
        />
      ) : null}
      {renaming ? (
        <RenameOrganizationDialog
          org={renaming}
          onClose={() => setRenaming(null)}
          onSaved={() => {
            setRenaming(null);
            load();
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteOrganizationDialog
          org={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            // The row goes at once, with the notice; the reload then brings any other change.
            const gone = deleting.id;
            setList((all) => (all ? all.filter((o) => o.id !== gone) : all));
            setDeleting(null);
            load();
          }}
        />
      ) : null}
    </section>
  );
}

/** One organization's members, managed by the platform administrator. */
export function PlatformOrganizationMembers(props: { id: string }) {
  const [org, setOrg] = useState<PlatformOrganization | null>(null);
  const [members, setMembers] = useState<Member[] | null>(null);
  const base = orgPath(props.id);
  const load = () => {
    api
      .get<PlatformOrganization[]>("/api/platform/organizations")
      .then((all) => setOrg(all.find((o) => o.id === props.id) ?? null))
      .catch(notifyError);
    api
      .get<Member[]>(`${base}/members`)
      .then(setMembers)
      .catch((err) => {
        setMembers([]);
        notifyError(err);
      });
  };
  useEffect(load, [props.id]);
  return (
    <section aria-labelledby="org-members-title">
      <p>
        <a href="/platform" onClick={onLinkClick}>
          ← All organizations
        </a>
      </p>
      <h2 id="org-members-title">Members of {org?.name ?? "the organization"}</h2>
      {org && !org.enabled ? <p class="status-off">This organization is suspended.</p> : null}
      <AddMemberForm base={base} onAdded={load} />
      {members === null ? (
        <p aria-busy="true">Loading members…</p>
      ) : members.length === 0 ? (
        <p class="empty">No members yet. Add the first owner by username.</p>
      ) : (
        <MemberList base={base} members={members} manage onChanged={load} />
      )}
    </section>
  );
}
