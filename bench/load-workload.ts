import type { LoadRequest, Operation, Planned } from "./load-driver.ts";

/** A signed-in member of a load organization: the access cookie and a personal API token pinned to the workspace. */
export type Member = { username: string; role: "owner" | "editor" | "viewer"; cookie: string; mcpToken: string };

/** One organization of the fleet and what the mix may touch in it. */
export type LoadOrganization = {
  id: string;
  workspaceId: string;
  /** An owner's API token pinned to a second workspace, the only one imports replace (reads never look there). */
  importToken: string;
  members: Member[];
  elementCount: number;
  elementTypes: string[];
  viewIds: string[];
  nodesPerView: number;
  /** Elements and relationships the mix created and may update or delete; taken out while a request holds one. */
  created: { elements: string[]; relationships: string[] };
  /** Imports and explore queries running now (the product limits graph queries per organization). */
  running: { imports: number; explores: number };
};

export type Fleet = {
  organizations: LoadOrganization[];
  /** The control's own address (its Origin, which state-changing requests with a cookie must carry). */
  origin: string;
  /** The Open Exchange file the occasional import sends. */
  importXml: string;
  /** Why explore is left out of the mix, when it is. */
  exploreUnavailable?: string;
};

/** A seeded generator for targets and users, apart from the driver's operation draw. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * n);
  };
}

const json = { "content-type": "application/json" };

/**
 * The two mixes over a fleet: `reads` is the three reads the floor serves too (equal shares), `mixed` what a
 * team of modelers and their assistants do all day — mostly reads, a fifth writes, an export, an import now and then.
 */
export function workload(fleet: Fleet, seed = 7) {
  const pick = randomSource(seed);
  const orgs = fleet.organizations;
  const anyOrg = () => orgs[pick(orgs.length)]!;
  const anyMember = (org: LoadOrganization) => org.members[pick(org.members.length)]!;
  const writer = (org: LoadOrganization) => {
    const writers = org.members.filter((m) => m.role !== "viewer");
    return writers[pick(writers.length)]!;
  };
  const asMember = (member: Member, request: LoadRequest): LoadRequest => ({
    ...request,
    headers: {
      cookie: member.cookie,
      ...(request.method === "GET" ? {} : { origin: fleet.origin }),
      ...(request.body ? json : {}),
      ...request.headers,
    },
  });
  const element = (org: LoadOrganization) => `e-${pick(org.elementCount)}`;
  const filter = (org: LoadOrganization) =>
    pick(2) === 0
      ? `type=${encodeURIComponent(org.elementTypes[pick(org.elementTypes.length)]!)}`
      : `name=${pick(10)}${pick(10)}`;

  /** A read as the product serves it (through the gateway) and as the floor serves it (bare), same targets. */
  type Read = { name: string; product(org: LoadOrganization): string; floor(org: LoadOrganization): string };
  const reads: Read[] = [
    {
      name: "list elements (filtered)",
      product: (org) => `/api/elements?${filter(org)}`,
      floor: (org) => `/w/${org.workspaceId}/elements?${filter(org)}`,
    },
    {
      name: "element detail",
      product: (org) => `/api/elements/${element(org)}`,
      floor: (org) => `/w/${org.workspaceId}/elements/${element(org)}`,
    },
    {
      name: "relationship list",
      product: () => "/api/relationships",
      floor: (org) => `/w/${org.workspaceId}/relationships`,
    },
  ];
  const readThroughGateway = (read: Read, weight: number): Operation => ({
    name: read.name,
    weight,
    plan: () => {
      const org = anyOrg();
      return { request: asMember(anyMember(org), { method: "GET", path: read.product(org) }) };
    },
  });

  /** Takes an id out of a pool for the request's time; `keep` puts it back when the request is done with it. */
  const holding = (pool: string[], build: (id: string) => LoadRequest, member: Member, keep: boolean) => {
    const id = pool.pop();
    if (id === undefined) return undefined;
    return {
      request: asMember(member, build(id)),
      settle: (status: number) => {
        if (keep && status < 300) pool.push(id);
      },
    } satisfies Planned;
  };
  const remember = (pool: string[]) => (status: number, body: string) => {
    if (status === 201) pool.push((JSON.parse(body) as { id: string }).id);
  };
  const mcp = (org: LoadOrganization, body: unknown): Planned => ({
    request: {
      method: "POST",
      path: "/mcp/",
      headers: {
        authorization: `Bearer ${anyMember(org).mcpToken}`,
        accept: "application/json, text/event-stream",
        ...json,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...(body as object) }),
    },
  });

  const mixed: Operation[] = [
    ...reads.map((read) => readThroughGateway(read, 14)),
    {
      name: "render view SVG",
      weight: 6,
      plan: () => {
        const org = anyOrg();
        const view = org.viewIds[pick(org.viewIds.length)]!;
        return { request: asMember(anyMember(org), { method: "GET", path: `/api/views/${view}/image?format=svg` }) };
      },
    },
    {
      name: "export XML",
      weight: 2,
      plan: () => ({ request: asMember(anyMember(anyOrg()), { method: "GET", path: "/api/export" }) }),
    },
    { name: "MCP tools/list", weight: 5, plan: () => mcp(anyOrg(), { method: "tools/list" }) },
    {
      name: "MCP get_element",
      weight: 8,
      plan: () => {
        const org = anyOrg();
        return mcp(org, {
          method: "tools/call",
          params: { name: "get_element", arguments: { element_id: element(org) } },
        });
      },
    },
    {
      name: "create element",
      weight: 5,
      plan: () => {
        const org = anyOrg();
        const body = JSON.stringify({ name: `Load ${pick(1_000_000)}`, type: "ApplicationComponent" });
        return {
          request: asMember(writer(org), { method: "POST", path: "/api/elements", body }),
          settle: remember(org.created.elements),
        };
      },
    },
    {
      name: "update element",
      weight: 4,
      plan: () => {
        const org = anyOrg();
        const body = JSON.stringify({ name: `Renamed ${pick(1_000_000)}`, documentation: "Changed under load" });
        return holding(
          org.created.elements,
          (id) => ({ method: "PUT", path: `/api/elements/${id}`, body }),
          writer(org),
          true,
        );
      },
    },
    {
      name: "delete element",
      weight: 4,
      plan: () => {
        const org = anyOrg();
        return holding(
          org.created.elements,
          (id) => ({ method: "DELETE", path: `/api/elements/${id}` }),
          writer(org),
          false,
        );
      },
    },
    {
      name: "create relationship",
      weight: 4,
      plan: () => {
        const org = anyOrg();
        // Between seeded elements, which the mix never deletes; Association is allowed between any two.
        const body = JSON.stringify({ type: "Association", source: element(org), target: element(org) });
        return {
          request: asMember(writer(org), { method: "POST", path: "/api/relationships", body }),
          settle: remember(org.created.relationships),
        };
      },
    },
    {
      name: "delete relationship",
      weight: 3,
      plan: () => {
        const org = anyOrg();
        const pool = org.created.relationships;
        return holding(pool, (id) => ({ method: "DELETE", path: `/api/relationships/${id}` }), writer(org), false);
      },
    },
    {
      name: "move node",
      weight: 5,
      plan: () => {
        const org = anyOrg();
        const v = pick(org.viewIds.length);
        const path = `/api/views/${org.viewIds[v]}/nodes/n-${v}-${pick(org.nodesPerView)}`;
        const body = JSON.stringify({ x: 20 + pick(1400), y: 20 + pick(800) });
        return { request: asMember(writer(org), { method: "PUT", path, body }) };
      },
    },
    {
      name: "import (replace a workspace)",
      weight: 0.3,
      plan: () => {
        const org = anyOrg();
        // One at a time per organization: two imports replacing the same workspace wait on each other's lock.
        if (org.running.imports > 0) return undefined;
        org.running.imports++;
        return {
          request: {
            method: "POST",
            path: "/api/import",
            headers: { authorization: `Bearer ${org.importToken}`, "content-type": "application/xml" },
            body: fleet.importXml,
          },
          settle: () => {
            org.running.imports--;
          },
        };
      },
    },
  ];
  if (!fleet.exploreUnavailable) {
    mixed.push({
      name: "explore (Cypher)",
      weight: 3,
      plan: () => {
        const org = anyOrg();
        // The product runs at most 8 graph queries per organization at once (429 past that); stay under it.
        if (org.running.explores >= 4) return undefined;
        org.running.explores++;
        const body = JSON.stringify({
          query: "MATCH (e:Element {id: $id})-[r]-(x:Element) RETURN e.name, type(r), x.name LIMIT 25",
          parameters: { id: element(org) },
        });
        return {
          request: asMember(anyMember(org), { method: "POST", path: "/api/explore", body }),
          settle: () => {
            org.running.explores--;
          },
        };
      },
    });
  }

  const floorReads: Operation[] = reads.map((read) => ({
    name: read.name,
    weight: 1,
    plan: () => ({ request: { method: "GET", path: read.floor(anyOrg()) } }),
  }));
  const gatewayReads: Operation[] = reads.map((read) => readThroughGateway(read, 1));
  return { mixed, gatewayReads, floorReads, readNames: reads.map((r) => r.name) };
}
