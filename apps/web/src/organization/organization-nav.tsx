import { onLinkClick, useLocation } from "../app/router.ts";
import { hasTeams } from "../app/session.ts";

/** The organization's sections: members, and in the session profile its teams (no tabs where there is one section). */
export function OrganizationNav() {
  const { path } = useLocation();
  if (!hasTeams()) return null;
  const tabs: [string, string][] = [
    ["/organization", "Members"],
    ["/organization/teams", "Teams"],
  ];
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
