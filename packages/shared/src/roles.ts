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
  | "org:audit";

const read: Capability[] = ["model:read"];
const write: Capability[] = [...read, "model:write", "workspace:write", "dashboard:write", "graph:rebuild"];

export const capabilities = {
  owner: [...write, "org:rename", "org:members", "org:delete", "org:audit"],
  admin: [...write, "org:rename", "org:members", "org:audit"],
  editor: write,
  viewer: read,
  member: read,
} as const satisfies Record<OrgRole, readonly Capability[]>;

export function roleHas(role: OrgRole, capability: Capability): boolean {
  return (capabilities[role] as readonly Capability[]).includes(capability);
}
