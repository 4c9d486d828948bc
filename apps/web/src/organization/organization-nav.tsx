import { onLinkClick, useLocation } from "../app/router.ts";
import { activeMembership, hasTeams, managesMembers, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";

/**
 * The organization's sections: members; in the session profile its teams; for those who manage it (owners, and
 * admins in the session profile) its audit; for every member its validation rules.
 */
export function OrganizationNav() {
  const { path } = useLocation();
  const { profile } = useStore(session);
  const tabs: [string, string][] = [["/organization", "Members"]];
  if (hasTeams()) tabs.push(["/organization/teams", "Teams"]);
  if (managesMembers(activeMembership(profile)?.role)) tabs.push(["/organization/audit", "Audit"]);
  tabs.push(["/organization/validation-rules", "Validation rules"]);
  return (
    <nav class="tabs" aria-label="Organization administration">
      {tabs.map(([href, label]) => (
        <a key={href} href={href} onClick={onLinkClick} aria-current={path === href ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
