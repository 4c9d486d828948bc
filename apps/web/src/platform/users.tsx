import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { PasswordLink, PlatformUser, PlatformUserPage } from "../api/types.ts";
import { session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { formatDate } from "../ui/copy.tsx";
import { ConfirmDialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify } from "../ui/notices.tsx";
import { CreateUserDialog, EditUserDialog, PasswordLinkDialog, userPath } from "./user-dialogs.tsx";

const PAGE = 25;
type Asking = { kind: "reset" | "delete" | "disable"; user: PlatformUser };

/** Every account: search, page, create, edit, disable/enable, reset the password (shows the link), delete. */
export function PlatformUsers() {
  const self = useStore(session).profile?.id;
  const [query, setQuery] = useState("");
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<PlatformUserPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<PlatformUser | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [link, setLink] = useState<{ username: string; link: PasswordLink; reason: "created" | "reset" } | null>(null);

  const load = () =>
    api
      .get<PlatformUserPage>("/api/platform/users", { q: query.trim() || undefined, limit: PAGE, offset })
      .then((p) => {
        setPage(p);
        setError(null);
      })
      .catch((err) => setError(describeError(err)));
  useEffect(() => {
    const timer = setTimeout(load, 200);
    return () => clearTimeout(timer);
  }, [query, offset]);

  const act = async (what: Asking) => {
    setAsking(null);
    setError(null);
    const { user } = what;
    try {
      if (what.kind === "delete") {
        await api.del(userPath(user.id));
        notify(`${user.username} was deleted.`);
      } else if (what.kind === "reset") {
        const answer = await api.post<{ set_password_link: PasswordLink }>(`${userPath(user.id)}/reset-password`);
        setLink({ username: user.username, link: answer.set_password_link, reason: "reset" });
      } else {
        await api.put(userPath(user.id), { disabled: true });
        notify(`${user.username} is disabled: signed out everywhere and cannot sign in.`);
      }
    } catch (err) {
      setError(describeError(err));
    }
    load();
  };
  const enable = async (user: PlatformUser) => {
    try {
      await api.put(userPath(user.id), { disabled: false });
      notify(`${user.username} can sign in again.`);
    } catch (err) {
      setError(describeError(err));
    }
    load();
  };

  const total = page?.total ?? 0;
  return (
    <section aria-labelledby="users-title">
      <div class="page-head">
        <h2 id="users-title">Users</h2>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New user
        </button>
      </div>
      <div class="field search-field">
        <label for="user-search">Search by username, name or e-mail</label>
        <input
          id="user-search"
          type="search"
          value={query}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setOffset(0);
          }}
        />
      </div>
      <FormError error={error} />
      {page === null ? (
        <p aria-busy="true">Loading users…</p>
      ) : page.items.length === 0 ? (
        <p class="empty">No user matches.</p>
      ) : (
        <UserTable
          users={page.items}
          self={self}
          onEdit={setEditing}
          onAsk={(kind, user) => setAsking({ kind, user })}
          onEnable={enable}
        />
      )}
      {page && total > 0 ? (
        <nav class="pager" aria-label="Pages of users">
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <button type="button" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </nav>
      ) : null}
      {creating ? (
        <CreateUserDialog
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            notify(`${created.user.username} was created.`);
            if (created.set_password_link)
              setLink({ username: created.user.username, link: created.set_password_link, reason: "created" });
            load();
          }}
        />
      ) : null}
      {editing ? (
        <EditUserDialog
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      ) : null}
      {asking ? <Confirm asking={asking} onAnswer={(yes) => (yes ? act(asking) : setAsking(null))} /> : null}
      {link ? <PasswordLinkDialog {...link} onClose={() => setLink(null)} /> : null}
    </section>
  );
}

function UserTable(props: {
  users: PlatformUser[];
  self: string | undefined;
  onEdit(user: PlatformUser): void;
  onAsk(kind: Asking["kind"], user: PlatformUser): void;
  onEnable(user: PlatformUser): void;
}) {
  return (
    <table class="table data-table" aria-label="Users">
      <thead>
        <tr>
          <th scope="col">Username</th>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Role</th>
          <th scope="col">Status</th>
          <th scope="col">Last sign-in</th>
          <th scope="col">Organizations</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {props.users.map((u) => (
          <tr key={u.id} data-user={u.username}>
            <td>{u.username}</td>
            <td>{u.name}</td>
            <td>{u.email}</td>
            <td>{u.role === "platform_admin" ? "platform admin" : "user"}</td>
            <td>{u.disabled ? <span class="status-off">disabled</span> : "active"}</td>
            <td>{u.last_sign_in_at ? formatDate(u.last_sign_in_at) : <span class="muted">never</span>}</td>
            <td>{u.organizations.map((o) => `${o.name} (${o.role})`).join(", ")}</td>
            <td class="row-actions">
              <button type="button" onClick={() => props.onEdit(u)} aria-label={`Edit ${u.username}`}>
                Edit
              </button>
              {u.id === props.self ? null : u.disabled ? (
                <button type="button" onClick={() => props.onEnable(u)} aria-label={`Enable ${u.username}`}>
                  Enable
                </button>
              ) : (
                <button type="button" onClick={() => props.onAsk("disable", u)} aria-label={`Disable ${u.username}`}>
                  Disable
                </button>
              )}
              <button
                type="button"
                onClick={() => props.onAsk("reset", u)}
                aria-label={`Reset password of ${u.username}`}
              >
                Reset password
              </button>
              {u.id === props.self ? null : (
                <button
                  type="button"
                  class="danger"
                  onClick={() => props.onAsk("delete", u)}
                  aria-label={`Delete ${u.username}`}
                >
                  Delete
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const QUESTIONS: Record<Asking["kind"], { title: string; confirm: string; text: (u: string) => string }> = {
  disable: {
    title: "Disable user",
    confirm: "Disable",
    text: (u) =>
      `${u} is signed out everywhere at once and cannot sign in; their API tokens stop working until enabled.`,
  },
  reset: {
    title: "Reset password",
    confirm: "Reset password",
    text: (u) =>
      `${u}'s password stops working, every session and API token of theirs ends, and you get a link for a new one.`,
  },
  delete: {
    title: "Delete user",
    confirm: "Delete user",
    text: (u) => `${u}'s account, memberships and API tokens are deleted. This cannot be undone.`,
  },
};

function Confirm(props: { asking: Asking; onAnswer(yes: boolean): void }) {
  const q = QUESTIONS[props.asking.kind];
  return (
    <ConfirmDialog
      title={q.title}
      message={<p>{q.text(props.asking.user.username)}</p>}
      confirmLabel={q.confirm}
      danger={props.asking.kind !== "reset"}
      onAnswer={props.onAnswer}
    />
  );
}
