import { useEffect, useState } from "preact/hooks";
import { ApiError, api, describeError } from "../api/client.ts";
import { queryParam } from "../app/router.ts";
import { FormError } from "../ui/form.tsx";

/** GET /api/oauth/requests/:handle (services/control/src/oauth/schemas.ts, OAuthConsentRequest). */
type ConsentRequest = {
  client_name: string;
  redirect_uri: string;
  redirect_host: string;
  username: string;
  token_name: string;
  can_grant: boolean;
  organizations: {
    id: string;
    name: string;
    role: string;
    can_change_models: boolean;
    workspaces: { id: string; name: string }[];
  }[];
  consent: string;
  expires_at: string;
};

type Refusal = { title: string; text: string };

function refusalOf(err: unknown): Refusal {
  const text = describeError(err);
  if (err instanceof ApiError && err.status === 404) return { title: "This authorization request is unknown", text };
  if (err instanceof ApiError && err.status === 410) return { title: "This authorization request is over", text };
  return { title: "The authorization request could not be opened", text };
}

/**
 * The consent page of an MCP client's OAuth sign-in: the authorization endpoint sends the browser here with the
 * handle of the request it keeps (the app's sign-in comes first when needed, and returns here). The user sees who
 * asks and where the answer goes, chooses the organization and optionally one workspace, and allows or denies;
 * the server answers where to send the browser (the client's redirect URI with a code or error=access_denied).
 */
export function OAuthConsentPage() {
  const handle = queryParam("request");
  const [request, setRequest] = useState<ConsentRequest | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(
    handle
      ? null
      : {
          title: "Nothing to authorize",
          text: "This page is opened by an MCP client that asks for access. Start again from your MCP client.",
        },
  );
  const [organizationId, setOrganizationId] = useState("");
  const [workspaceId, setWorkspaceId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<"allow" | "deny" | null>(null);
  const path = handle ? `/api/oauth/requests/${encodeURIComponent(handle)}` : null;

  useEffect(() => {
    if (!path) return;
    api
      .get<ConsentRequest>(path)
      .then((r) => {
        setRequest(r);
        setOrganizationId(r.organizations[0]?.id ?? "");
      })
      .catch((err) => setRefusal(refusalOf(err)));
  }, [path]);

  const org = request?.organizations.find((o) => o.id === organizationId);
  const workspace = org?.workspaces.find((w) => w.id === workspaceId);

  const decide = async (decision: "allow" | "deny") => {
    if (!path || !request) return;
    setLeaving(decision);
    setError(null);
    try {
      const { redirect_to } = await api.post<{ redirect_to: string }>(`${path}/decision`, {
        decision,
        consent: request.consent,
        ...(decision === "allow" ? { organization_id: organizationId, workspace_id: workspaceId || null } : {}),
      });
      window.location.assign(redirect_to);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 410)) setRefusal(refusalOf(err));
      else setError(describeError(err));
      setLeaving(null);
    }
  };

  const grantable = Boolean(request?.can_grant && request.organizations.length > 0);

  return (
    <main class="auth-page" id="main">
      <div class="auth-card">
        <h1 id="consent-title">Connect an MCP client</h1>
        {refusal ? (
          <div role="alert">
            <h2>{refusal.title}</h2>
            <p>{refusal.text}</p>
          </div>
        ) : !request ? (
          <p aria-busy="true">Opening the request…</p>
        ) : (
          <form
            aria-labelledby="consent-title"
            onSubmit={(e) => {
              e.preventDefault();
              decide("allow");
            }}
          >
            <p>
              <strong>{request.client_name}</strong> asks to use the ArchiMate Modeler's MCP endpoint on your behalf,
              signed in as <strong>{request.username}</strong>.
            </p>
            <p>
              Your answer goes to <strong>{request.redirect_host}</strong>
              <br />
              <code class="muted">{request.redirect_uri}</code>
            </p>
            {!request.can_grant ? (
              <p role="note">
                An Admin account cannot connect an MCP client (it holds no personal API tokens). Deny, then sign in with
                your member account and start again from the client.
              </p>
            ) : request.organizations.length === 0 ? (
              <p role="note">
                You are not a member of any active organization, so there is nothing to grant. Deny to tell the client.
              </p>
            ) : (
              <>
                <div class="field">
                  <label for="consent-organization">Organization</label>
                  <select
                    id="consent-organization"
                    value={organizationId}
                    onChange={(e) => {
                      setOrganizationId(e.currentTarget.value);
                      setWorkspaceId("");
                    }}
                  >
                    {request.organizations.map((o) => (
                      <option key={o.id} value={o.id}>
                        {o.name} (your role: {o.role})
                      </option>
                    ))}
                  </select>
                </div>
                <div class="field">
                  <label for="consent-workspace">Workspace</label>
                  <select
                    id="consent-workspace"
                    value={workspaceId}
                    onChange={(e) => setWorkspaceId(e.currentTarget.value)}
                  >
                    <option value="">Every workspace of {org?.name}</option>
                    {org?.workspaces.map((w) => (
                      <option key={w.id} value={w.id}>
                        Only {w.name}
                      </option>
                    ))}
                  </select>
                </div>
                {org ? (
                  <div class="login-message" id="consent-access">
                    <p>
                      The client acts with your role in {org.name}, <strong>{org.role}</strong>: it may{" "}
                      {org.can_change_models ? "read and change models" : "read models, not change them"}
                      {workspace ? `, in the workspace ${workspace.name} only` : ", in every workspace you can see"}.
                    </p>
                    <p>
                      Your role is checked again on every request: when it changes or you leave the organization, the
                      client's access follows at once.
                    </p>
                    <p>
                      The client renews its access by itself until you revoke "{request.token_name}" under Personal API
                      tokens in your settings.
                    </p>
                  </div>
                ) : null}
              </>
            )}
            <FormError error={error} />
            {leaving ? (
              <p role="status">Returning to {request.redirect_host}…</p>
            ) : (
              <div class="row-actions">
                {grantable ? (
                  <button type="submit" class="primary" disabled={!organizationId}>
                    Allow
                  </button>
                ) : null}
                <button type="button" onClick={() => decide("deny")}>
                  Deny
                </button>
              </div>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
