import type { OrgRole } from "@ams/shared";

/**
 * Who is calling, whichever way they proved it. A local access JWT and a verified identity-provider token map to
 * the same Identity (see identityFromClaims); a personal API token adds its grant.
 */
export type Identity = {
  userId: string;
  username: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  /** The realm role platform_admin: administers organizations, never grants content access by itself. */
  platformAdmin: boolean;
  mustChangePassword: boolean;
  /** Which sign-in produced the identity; dispatches refresh and logout. */
  provider: "local" | "oidc" | "api-token" | "session";
  /** Session profile: the organization this session chose (better-auth session's activeOrganizationId). */
  activeOrganizationId?: string | null;
  /** Session profile: the id of the better-auth session the caller presented. */
  sessionId?: string;
};

/** A personal API token as resolved on this request: scope from the token, role live from the membership. */
export type ApiTokenGrant = {
  tokenId: string;
  /** The token's name (recorded as the way in of the changes it makes). Optional: principals built before it. */
  name?: string;
  /** The OAuth client the token was granted to (an MCP client's registered name), when it is an OAuth grant. */
  oauthClientName?: string | null;
  organizationId: string;
  organizationEnabled: boolean;
  /** The workspace the token is restricted to, or null for the whole organization. */
  pinnedWorkspaceId: string | null;
  /** The workspace requests act on: pinned, else the user's selection inside the token's organization, else the first. */
  workspaceId: string | null;
  /** Null when the owner is no longer a member of the token's organization. */
  role: OrgRole | null;
  /** The owner's teams in the token's organization. */
  teamIds: string[];
  /** False when the pinned workspace is assigned to teams the owner is not in (and they are no owner/admin). */
  workspaceVisible: boolean;
  /** Issued to an MCP client through OAuth: valid on the MCP endpoint only. */
  mcpOnly: boolean;
};

export type Principal = Identity & { apiToken: ApiTokenGrant | null };

/** The result of the gateway for one request: the principal and, when the route has one, its target. */
export type Access = {
  principal: Principal | null;
  organizationId: string | null;
  workspaceId: string | null;
  role: OrgRole | null;
  /** The caller's teams in the organization (forwarded as teamIds). */
  teamIds: string[];
};
