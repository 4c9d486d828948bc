/**
 * Response types of the REST API, derived from the model's verbs (the functions the server answers with), so a
 * change in the model's output changes these types and the UI fails to type-check instead of drifting.
 * Type-only imports: nothing of the server is bundled.
 */
import type {
  bulkEdit,
  createConnection,
  createNode,
  createWorkspaceFromXml,
  explore,
  getDashboard,
  getElementViews,
  getModelInfo,
  getPlatformPlugin,
  getRebuildJob,
  getView,
  importModel,
  listDashboards,
  listDashboardsAdmin,
  listEnabledPlugins,
  listPlatformPlugins,
  listPropertyDefinitions,
  listViewpoints,
  listViews,
  Element as ModelElement,
  FolderItem as ModelFolderItem,
  Relationship as ModelRelationship,
  Workspace as ModelWorkspace,
  readTable,
  runPanel,
} from "@ams/model";

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type Element = ModelElement;
export type FolderItem = ModelFolderItem;
export type Relationship = ModelRelationship;
export type Workspace = ModelWorkspace;
export type ModelInfo = Out<typeof getModelInfo>;
export type TableData = Out<typeof readTable>;
export type BulkEditResult = Out<typeof bulkEdit>;
export type ViewSummary = Out<typeof listViews>[number];
export type ViewDetail = Out<typeof getView>;
export type ViewNode = Out<typeof createNode>;
export type ViewConnection = Out<typeof createConnection>;
export type ElementViewRef = Out<typeof getElementViews>[number];
export type PropertyDefinition = Out<typeof listPropertyDefinitions>[number];
export type Viewpoint = ReturnType<typeof listViewpoints>[number];
export type EnabledPlugin = ReturnType<typeof listEnabledPlugins>[number];
export type ImportResult = Out<typeof importModel>;
/** A workspace created from an Open Exchange file, with what its import brought in and its warnings. */
export type WorkspaceFromFile = Out<typeof createWorkspaceFromXml>;
export type QueryResult = Out<typeof explore>;
export type PanelAnswer = Out<typeof runPanel>;
export type GraphJob = Out<typeof getRebuildJob>;
export type Dashboard = Out<typeof getDashboard>;
export type DashboardSummary = Out<typeof listDashboards>[number];
export type DashboardAdminSummary = Out<typeof listDashboardsAdmin>[number];
export type PluginSummary = ReturnType<typeof listPlatformPlugins>[number];
export type PluginDetail = ReturnType<typeof getPlatformPlugin>;
export type PropertyValue = string | number | boolean;

// Control's verbs: the caller's profile, the sign-in options, site messages, organizations, members, invitations,
// tokens, platform administration. Type-only, like the model's above.
type ControlAccounts = typeof import("@ams/control/verbs/accounts.ts");
type ControlSettings = typeof import("@ams/control/verbs/settings.ts");

/** GET /api/me: the signed-in person, their memberships and active organization and workspace. */
export type Profile = Out<ControlAccounts["getProfile"]>;
export type Membership = Profile["memberships"][number];
/** Who is signed in: the fields GET /api/auth/me and the sign-in answer share with the profile. */
export type Identity = Pick<Profile, "id" | "username" | "name" | "email" | "role">;
export type AuthOptions = ReturnType<ControlAccounts["getAuthOptions"]>;
export type SiteMessages = Out<ControlSettings["getSiteMessages"]>;
type ControlMembers = typeof import("@ams/control/verbs/members.ts");
type ControlInvitations = typeof import("@ams/control/verbs/invitations.ts");
type ControlTokens = typeof import("@ams/control/verbs/tokens.ts");
type ControlOrganizations = typeof import("@ams/control/verbs/organizations.ts");
type ControlPlatform = typeof import("@ams/control/verbs/platform.ts");
type ControlTeams = typeof import("@ams/control/verbs/teams.ts");
type ControlSessions = typeof import("@ams/control/verbs/sessions.ts");
type ControlAudit = typeof import("@ams/control/verbs/audit.ts");
type ControlUsers = typeof import("@ams/control/verbs/users.ts");

/** GET /api/platform/audit and GET /api/organizations/:id/audit: a page of audit events, newest first. */
export type AuditPage = Out<ControlAudit["listPlatformAudit"]>;
export type AuditEntry = AuditPage["items"][number];
export type { AuditKind } from "@ams/control/verbs/audit.ts";
/** GET /api/platform/users: a page of accounts as the platform administrator sees them. */
export type PlatformUserPage = Out<ControlUsers["listUsers"]>;
export type PlatformUser = PlatformUserPage["items"][number];
export type CreatedUser = Out<ControlUsers["createUser"]>;
export type PasswordLink = Out<ControlUsers["resetUserPassword"]>["set_password_link"];

export type Member = Out<ControlMembers["listMembers"]>[number];
/** A team of the session profile: its members' user ids and the workspaces assigned to it. */
export type Team = Out<ControlTeams["listTeams"]>[number];
export type WorkspaceTeams = Out<ControlTeams["getWorkspaceTeams"]>;
export type Invitation = Out<ControlInvitations["listInvitations"]>[number];
export type IssuedInvitation = Out<ControlInvitations["createInvitation"]>;
export type InvitationPreview = Out<ControlInvitations["previewInvitation"]>;
export type AcceptedInvitation = Out<ControlInvitations["acceptInvitation"]>;
export type ApiToken = Out<ControlTokens["listApiTokens"]>[number];
/** The OAuth grant of an MCP client that holds the token (null for a token made on the tokens page). */
export type OAuthGrant = NonNullable<ApiToken["oauth_grant"]>;
/** GET /auth/sessions (session profile): one of the signed-in user's sessions, this browser's marked `current`. */
export type UserSession = Out<ControlSessions["listSessions"]>["sessions"][number];
/** GET /auth/providers (session profile): an OAuth/OIDC provider the sign-in page offers. */
export type SignInProvider = ReturnType<ControlSessions["listSignInProviders"]>["providers"][number];
export type CreatedApiToken = Out<ControlTokens["createApiToken"]>;
export type Organization = Out<ControlOrganizations["updateOrganization"]>;
export type PlatformOrganization = Out<ControlPlatform["listAllOrganizations"]>[number];
/** Organization roles: owner/editor/viewer with local accounts, owner/admin/member in the session profile. */
export type MemberRole = "owner" | "editor" | "viewer" | "admin" | "member";
export type { Colouring, DerivedResult, GapResult, ImpactResult, ValidationRule, ValidationRuleList } from "@ams/model";
