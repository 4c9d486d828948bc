import { onLinkClick, useLocation } from "../app/router.ts";
import { canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";

/** Links between a workspace's modeler, its activity, its versions and (for writers) its share links; the current one marked. */
export function WorkspaceNav(props: { workspaceId: string }) {
  const { path } = useLocation();
  const { profile } = useStore(session);
  const base = `/workspaces/${encodeURIComponent(props.workspaceId)}`;
  const links: [string, string][] = [
    [base, "Model"],
    [`${base}/table`, "Table"],
    [`${base}/activity`, "Activity"],
    [`${base}/versions`, "Versions"],
  ];
  if (canEdit(profile)) links.push([`${base}/share-links`, "Share links"]);
  return (
    <nav class="workspace-nav" aria-label="Workspace">
      {links.map(([href, label]) => (
        <a key={href} href={href} onClick={onLinkClick} aria-current={path === href ? "page" : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
