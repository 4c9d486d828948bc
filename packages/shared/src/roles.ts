/** Roles and the one capability table every service checks against. */
export const OrgRoles = ["owner", "admin", "editor", "viewer", "member"] as const;
export type OrgRole = (typeof OrgRoles)[number];

export type Capability =
  | "model:read"
  | "model:write"
  | "workspace:write"
  | "dashboard:write"
  | "graph:rebuild"
  | "org:rename"
  | "org:members"
  | "org:delete"
  | "org:audit"
  /** Write the organization's validation rules (every member reads them). */
  | "org:rules";

const read: Capability[] = ["model:read"];
const write: Capability[] = [...read, "model:write", "workspace:write", "dashboard:write", "graph:rebuild"];

export const capabilities = {
  owner: [...write, "org:rename", "org:members", "org:delete", "org:audit", "org:rules"],
  admin: [...write, "org:rename", "org:members", "org:audit", "org:rules"],
  editor: write,
  viewer: read,
  member: read,
} as const satisfies Record<OrgRole, readonly Capability[]>;

export function roleHas(role: OrgRole, capability: Capability): boolean {
  return (capabilities[role] as readonly Capability[]).includes(capability);
}
