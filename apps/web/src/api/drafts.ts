/** Drafts and review (README, Drafts and review): fork, list, changes, conflicts, review, comments, merge, discard. */
import type {
  DraftComment,
  DraftConflict,
  DraftConflicts,
  DraftDetail,
  DraftReview,
  MergeResult,
  Draft as ModelDraft,
  Resolution,
} from "@ams/model";
import { api } from "./client.ts";
import type { ModelDiff } from "./history.ts";

export type Draft = ModelDraft;
export type { DraftComment, DraftConflict, DraftConflicts, DraftDetail, DraftReview, MergeResult, Resolution };

const draft = (id: string) => `/api/drafts/${encodeURIComponent(id)}`;
const drafts = (ws: string) => `/api/workspaces/${encodeURIComponent(ws)}/drafts`;

export const draftsApi = {
  list: (ws: string) => api.get<Draft[]>(drafts(ws)),
  create: (ws: string, name: string, description: string | null) => api.post<Draft>(drafts(ws), { name, description }),
  get: (id: string) => api.get<DraftDetail>(draft(id)),
  changes: (id: string) => api.get<ModelDiff>(`${draft(id)}/changes`),
  conflicts: (id: string) => api.get<DraftConflicts>(`${draft(id)}/conflicts`),
  submit: (id: string) => api.post<Draft>(`${draft(id)}/submit`),
  review: (id: string, decision: DraftReview["decision"], comment: string) =>
    api.post<DraftReview>(`${draft(id)}/reviews`, { decision, comment }),
  comment: (id: string, text: string, objectId: string | null) =>
    api.post<DraftComment>(`${draft(id)}/comments`, { text, object_id: objectId }),
  merge: (id: string, resolutions: Record<string, Resolution>) =>
    api.post<MergeResult>(`${draft(id)}/merge`, { resolutions }),
  discard: (id: string) => api.post<Draft>(`${draft(id)}/discard`),
};

/** A draft still takes changes (and reviews) until it is merged, discarded or closed with its base. */
export const isOpen = (d: Pick<Draft, "state">) => d.state === "open" || d.state === "submitted";
