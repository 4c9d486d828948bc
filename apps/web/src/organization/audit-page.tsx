import { activeMembership, hasTeams, managesMembers, session } from "../app/session.ts";
import { Shell } from "../app/shell.tsx";
import { useStore } from "../app/store.ts";
import { AuditLog } from "../audit/audit-log.tsx";
import { ORGANIZATION_KINDS } from "../audit/audit-words.ts";
import { OrganizationNav } from "./organization-nav.tsx";

/** The active organization's audit: memberships, roles, invitations, teams, API tokens and workspaces. */
export function OrganizationAuditPage() {
  const { profile } = useStore(session);
  const membership = activeMembership(profile);
  const allowed = managesMembers(membership?.role);
  return (
    <Shell>
      <main class="page" id="main">
        <div class="page-head">
          <h1>{membership?.organization_name ?? "Organization"}</h1>
          {membership ? <span class="role-badge">your role: {membership.role}</span> : null}
        </div>
        <OrganizationNav />
        <h2>Audit</h2>
        {membership && allowed ? (
          <AuditLog
            endpoint={`/api/organizations/${encodeURIComponent(membership.organization_id)}/audit`}
            kinds={ORGANIZATION_KINDS}
            showOrganization={false}
          />
        ) : (
          <p class="form-error" role="alert">
            Only the organization's {hasTeams() ? "owners and admins" : "owners"} see its audit.
          </p>
        )}
      </main>
    </Shell>
  );
}
