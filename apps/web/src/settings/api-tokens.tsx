import { useEffect, useState } from "preact/hooks";
import { api, describeError } from "../api/client.ts";
import type { ApiToken, CreatedApiToken, OAuthGrant, Workspace } from "../api/types.ts";
import { session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { CopyBlock, formatDate } from "../ui/copy.tsx";
import { ConfirmDialog, Dialog } from "../ui/dialog.tsx";
import { FormError } from "../ui/form.tsx";
import { notify, notifyError } from "../ui/notices.tsx";
import { MCP_CLIENTS, type McpClientKind, mcpConfig } from "./mcp-config.ts";

function CreateTokenDialog(props: { onClose: () => void; onCreated: (t: CreatedApiToken) => void }) {
  const { profile } = useStore(session);
  const memberships = profile?.memberships.filter((m) => m.enabled) ?? [];
  const [name, setName] = useState("");
  const [orgId, setOrgId] = useState(profile?.active_organization_id ?? memberships[0]?.organization_id ?? "");
  const [workspaceId, setWorkspaceId] = useState("");
  const [expires, setExpires] = useState("");
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const isActive = orgId === profile?.active_organization_id;

  // The workspace list is the active organization's (the API lists only those); another organization's token
  // is made for the whole organization or after switching to it.
  useEffect(() => {
    setWorkspaceId("");
    if (!isActive) return setWorkspaces(null);
    api
      .get<Workspace[]>("/api/workspaces")
      .then(setWorkspaces)
      .catch(() => setWorkspaces([]));
  }, [orgId]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const body: Record<string, string> = { organization_id: orgId };
      if (name.trim()) body.name = name.trim();
      if (workspaceId) body.workspace_id = workspaceId;
      if (expires) body.expires_at = new Date(`${expires}T23:59:59`).toISOString();
      props.onCreated(await api.post<CreatedApiToken>("/api/settings/api-tokens", body));
    } catch (err) {
      setError(describeError(err));
    }
  };
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <Dialog title="New API token" onClose={props.onClose}>
      <form class="dialog-body" onSubmit={submit}>
        <div class="field">
          <label for="token-name">Name</label>
          <input
            id="token-name"
            maxLength={100}
            placeholder="API token"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="token-org">Organization</label>
          <select id="token-org" required value={orgId} onChange={(e) => setOrgId(e.currentTarget.value)}>
            {memberships.map((m) => (
              <option key={m.organization_id} value={m.organization_id}>
                {m.organization_name} ({m.role})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="token-workspace">Workspace (optional)</label>
          <select
            id="token-workspace"
            value={workspaceId}
            disabled={!workspaces}
            onChange={(e) => setWorkspaceId(e.currentTarget.value)}
          >
            <option value="">Any workspace: the token follows your active workspace</option>
            {(workspaces ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
          {!isActive ? (
            <p class="hint">Switch to that organization to pin the token to one of its workspaces.</p>
          ) : null}
        </div>
        <div class="field">
          <label for="token-expires">Expires after (optional)</label>
          <input
            id="token-expires"
            type="date"
            min={tomorrow}
            value={expires}
            onInput={(e) => setExpires(e.currentTarget.value)}
          />
          <p class="hint">Without a date the token works until you revoke it.</p>
        </div>
        <FormError error={error} />
        <footer class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={!orgId}>
            Create token
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

/** The secret, once, and the MCP client configurations filled in with it. */
function CreatedTokenDialog(props: { token: CreatedApiToken; onClose: () => void }) {
  const [kind, setKind] = useState<McpClientKind>("mcpServers");
  const client = MCP_CLIENTS.find((c) => c.kind === kind) ?? MCP_CLIENTS[0];
  return (
    <Dialog title="API token created" onClose={props.onClose} wide>
      <div class="dialog-body">
        <p class="outcome warn">Copy the token now: it is shown only this once and cannot be shown again.</p>
        <CopyBlock id="token-secret" label="Token" text={props.token.token} copyLabel="Copy token" />
        <h3>Use it from an MCP client</h3>
        <div class="field">
          <label for="mcp-client">Client</label>
          <select id="mcp-client" value={kind} onChange={(e) => setKind(e.currentTarget.value as McpClientKind)}>
            {MCP_CLIENTS.map((c) => (
              <option key={c.kind} value={c.kind}>
                {c.label}
              </option>
            ))}
          </select>
          <p class="hint">{client.where}</p>
        </div>
        <CopyBlock
          id="mcp-config"
          label="MCP configuration"
          text={mcpConfig(kind, props.token.token)}
          copyLabel="Copy configuration"
          rows={12}
        />
      </div>
      <footer class="dialog-actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Done
        </button>
      </footer>
    </Dialog>
  );
}

/**
 * An MCP client's OAuth grant: its access token lasts an hour and lapses often, but the client renews it with its
 * refresh token without the user, so it is shown as connected (with its last renewal) rather than expired — until no
 * refresh token is left (unused for 60 days), when the assistant must be allowed again.
 */
function GrantStatus(props: { grant: OAuthGrant }) {
  const { grant } = props;
  if (!grant.renewable_until) {
    return (
      <>
        expired
        <br />
        <span class="muted small">The assistant must be connected again (unused too long).</span>
      </>
    );
  }
  return (
    <>
      Connected assistant — renews itself
      <br />
      <span class="muted small">
        Last renewed {formatDate(grant.renewed_at)}; renews until {formatDate(grant.renewable_until)} if unused
      </span>
    </>
  );
}

export function ApiTokens() {
  const { profile } = useStore(session);
  const [list, setList] = useState<ApiToken[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const orgName = (id: string) => profile?.memberships.find((m) => m.organization_id === id)?.organization_name ?? id;

  const load = () =>
    api
      .get<ApiToken[]>("/api/settings/api-tokens")
      .then(setList)
      .catch((err) => {
        setList([]);
        notifyError(err);
      });
  useEffect(() => {
    load();
  }, []);

  const revoke = async (t: ApiToken) => {
    try {
      await api.del(`/api/settings/api-tokens/${encodeURIComponent(t.id)}`);
      notify(`The token '${t.name}' was revoked; it stops working at once.`);
      load();
    } catch (err) {
      notifyError(err);
    }
  };
  const admin = profile?.role === "platform_admin";
  const canCreate = !admin && (profile?.memberships.some((m) => m.enabled) ?? false);

  return (
    <section class="card" aria-labelledby="tokens-title">
      <div class="page-head">
        <h2 id="tokens-title">Personal API tokens</h2>
        {canCreate ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            New API token
          </button>
        ) : null}
      </div>
      <p class="muted">
        A token lets a script or an MCP client act as you in one organization, with your role there. Send it as{" "}
        <code>Authorization: Bearer …</code>.
      </p>
      {admin ? (
        <p class="muted">
          The platform administrator has no API tokens: the platform is administered from a signed-in session.
        </p>
      ) : !canCreate ? (
        <p class="muted">A token belongs to an organization; you need a membership in an active organization first.</p>
      ) : null}
      {list === null ? (
        <p aria-busy="true">Loading tokens…</p>
      ) : list.length === 0 ? (
        <p class="empty">No tokens.</p>
      ) : (
        <table class="table data-table" aria-label="API tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Organization</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>
                  {orgName(t.organization_id)}
                  {t.workspace_id ? " (one workspace)" : ""}
                </td>
                <td>{formatDate(t.created_at)}</td>
                <td data-column="expires">
                  {t.oauth_grant ? (
                    <GrantStatus grant={t.oauth_grant} />
                  ) : t.expired ? (
                    "expired"
                  ) : t.expires_at ? (
                    formatDate(t.expires_at)
                  ) : (
                    "never"
                  )}
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {creating ? (
        <CreateTokenDialog
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            setCreated(t);
            load();
          }}
        />
      ) : null}
      {created ? <CreatedTokenDialog token={created} onClose={() => setCreated(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title="Revoke API token"
          danger
          confirmLabel="Revoke"
          message={
            revoking.oauth_grant ? (
              <p>
                The assistant '{revoking.oauth_grant.client_name}' loses access at once and cannot renew it; to use it
                again you allow it again.
              </p>
            ) : (
              <p>Scripts and MCP clients using '{revoking.name}' stop working at once.</p>
            )
          }
          onAnswer={(yes) => {
            const t = revoking;
            setRevoking(null);
            if (yes) revoke(t);
          }}
        />
      ) : null}
    </section>
  );
}
