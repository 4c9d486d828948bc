/** Share links of a workspace (README, Reports and share links): create, list, revoke. */
import { api } from "./client.ts";

export type ShareLink = {
  id: string;
  scope: "view" | "report";
  view_id: string | null;
  view_name: string | null;
  expires_at: string | null;
  frame_ancestors: string;
  created_by: { id: string | null; name: string | null };
  created_at: string;
};
/** The creation's answer: the URL with its token, shown this once. */
export type CreatedShareLink = ShareLink & { url: string };

export type NewShareLink = {
  scope: "view" | "report";
  view_id?: string;
  expires_at?: string;
  frame_ancestors?: string;
};

const base = (ws: string) => `/api/workspaces/${encodeURIComponent(ws)}/share-links`;

export const shareLinksApi = {
  list: (ws: string) => api.get<ShareLink[]>(base(ws)),
  create: (ws: string, input: NewShareLink) => api.post<CreatedShareLink>(base(ws), input),
  revoke: (ws: string, id: string) => api.del(`${base(ws)}/${encodeURIComponent(id)}`),
};
