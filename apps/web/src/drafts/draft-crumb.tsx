import { onLinkClick } from "../app/router.ts";
import { useStore } from "../app/store.ts";
import { draftMarks } from "./draft-words.ts";

/** In a draft's title: its base workspace, linked, before the draft's own name ("Workspaces / Base / Draft"). */
export function DraftCrumb(props: { workspaceId: string; badgeOnly?: boolean }) {
  const mark = useStore(draftMarks, (m) => m[props.workspaceId]);
  if (!mark) return null;
  // Over the modeler the banner names the base: the title stays short enough for the workspace's links.
  if (props.badgeOnly) return <span class="role-badge">draft</span>;
  return (
    <>
      {mark.base_workspace_id ? (
        <a href={`/workspaces/${encodeURIComponent(mark.base_workspace_id)}`} onClick={onLinkClick} class="crumb">
          {mark.base_name}
        </a>
      ) : (
        <span>{mark.base_name}</span>
      )}{" "}
      / <span class="role-badge">draft</span>{" "}
    </>
  );
}
