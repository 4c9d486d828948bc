import { onLinkClick, useLocation } from "../app/router.ts";

/** Links between a workspace's modeler, its activity and its versions; the current one marked. */
export function WorkspaceNav(props: { workspaceId: string }) {
  const { path } = useLocation();
  const base = `/workspaces/${encodeURIComponent(props.workspaceId)}`;
  const links: [string, string][] = [
    [base, "Model"],
    [`${base}/table`, "Table"],
    [`${base}/activity`, "Activity"],
    [`${base}/versions`, "Versions"],
  ];
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
