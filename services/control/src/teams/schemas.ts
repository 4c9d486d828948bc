import { z } from "@hono/zod-openapi";

export const Team = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    member_ids: z.array(z.string()).describe("User ids of the team's members"),
    workspace_ids: z.array(z.string()).describe("Workspaces assigned to the team"),
    created_at: z.string(),
  })
  .openapi("Team");
export type Team = z.infer<typeof Team>;

export const TeamInput = z.object({ name: z.string().trim().min(1).max(200) });
export const TeamParams = z.object({ id: z.string().min(1), teamId: z.string().min(1) });
export const TeamMemberParams = TeamParams.extend({ userId: z.string().min(1) });

export const WorkspaceTeamsInput = z.object({
  team_ids: z
    .array(z.string())
    .max(100)
    .describe("The teams that may see the workspace; empty: the whole organization sees it"),
});
export const WorkspaceTeams = z
  .object({ workspace_id: z.string(), team_ids: z.array(z.string()) })
  .openapi("WorkspaceTeams");
export type WorkspaceTeams = z.infer<typeof WorkspaceTeams>;
