import { onLinkClick, useLocation } from "../app/router.ts";
import { canEdit, session } from "../app/session.ts";
import { useStore } from "../app/store.ts";
import { draftMarks } from "../drafts/draft-words.ts";

/**
 * Links between a workspace's modeler, its table, activity, versions, drafts and (for writers) its share links; the
 * current one marked. A draft has its review page instead of drafts of its own.
 */
export function WorkspaceNav(props: { workspaceId: string }) {
  const { path } = useLocation();
  const { profile } = useStore(session);
  const draft = useStore(draftMarks, (m) => m[props.workspaceId]);
  const base = `/workspaces/${encodeURIComponent(props.workspaceId)}`;
  const links: [string, string][] = [
    [base, "Model"],
    [`${base}/table`, "Table"],
    [`${base}/activity`, "Activity"],
    [`${base}/versions`, "Versions"],
    draft ? [`${base}/review`, "Review"] : [`${base}/drafts`, "Drafts"],
  ];
  if (canEdit(profile) && !draft) links.push([`${base}/share-links`, "Share links"]);
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
