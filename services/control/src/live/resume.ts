/** Where a stream starts: after a revision, or a resync (the client reloads) for a reason it is told. */
export type ResumePoint =
  | { kind: "after"; revision: number }
  | { kind: "resync"; reason: "malformed" | "other_workspace" | "future" | "too_far_behind" };

/** More groups behind than this and the client reloads instead of catching up. */
export const CATCH_UP_MAX = 1_000;

/**
 * Reads `Last-Event-ID` (the browser's resume after a reconnect: `<workspace>:<revision>`, or a bare revision) or,
 * without it, `since` (the revision a page loaded). Neither: from now (the latest revision).
 */
export function resumePoint(
  workspaceId: string,
  latest: number,
  lastEventId: string | undefined,
  since: number | undefined,
): ResumePoint {
  let revision: number;
  if (lastEventId !== undefined && lastEventId.trim() !== "") {
    const text = lastEventId.trim();
    const colon = text.lastIndexOf(":");
    const rev = colon >= 0 ? text.slice(colon + 1) : text;
    if (!/^\d{1,15}$/.test(rev)) return { kind: "resync", reason: "malformed" };
    if (colon >= 0 && text.slice(0, colon) !== workspaceId) return { kind: "resync", reason: "other_workspace" };
    revision = Number(rev);
  } else if (since !== undefined) {
    revision = since;
  } else {
    return { kind: "after", revision: latest };
  }
  if (revision > latest) return { kind: "resync", reason: "future" };
  if (latest - revision > CATCH_UP_MAX) return { kind: "resync", reason: "too_far_behind" };
  return { kind: "after", revision };
}
