import { describe, expect, test } from "vitest";
import { byKind, type K8sObject, minimalSets, named, render, setArgs } from "./render.ts";

// Security finding 15, as the chart renders it: NetworkPolicy on by default, and read-only Neo4j credentials for
// tenant and mcp when the operator gives them.

const minimal = render({ args: setArgs(minimalSets) });

type Peer = {
  podSelector?: { matchLabels: Record<string, string> };
  namespaceSelector?: { matchLabels: Record<string, string> };
};
type Rule = { ports: { port: string }[]; from: Peer[] };

/** Each ingress rule of a component's NetworkPolicy as "port <- peer, peer". */
function rules(objects: K8sObject[], component: string): string[] {
  const policy = named(objects, "NetworkPolicy", `site-${component}`);
  expect(policy.spec.policyTypes).toEqual(["Ingress"]);
  expect(policy.spec.podSelector.matchLabels["app.kubernetes.io/component"]).toBe(component);
  return (policy.spec.ingress as Rule[]).map(
    (r) =>
      `${r.ports.map((p) => p.port).join(",")} <- ${r.from
        .map((p) =>
          p.namespaceSelector
            ? `namespace ${p.namespaceSelector.matchLabels["kubernetes.io/metadata.name"]}`
            : `pods ${p.podSelector?.matchLabels["app.kubernetes.io/component"]}`,
        )
        .join(", ")}`,
  );
}

describe("NetworkPolicy is on by default", () => {
  test("tenant and mcp take requests from control only, their metrics from the monitoring namespace only", () => {
    for (const component of ["tenant", "mcp"]) {
      expect(rules(minimal, component)).toEqual(["http <- pods control", "metrics <- namespace monitoring"]);
    }
  });

  test("control takes requests from the ingress controller and the release's test pods; the worker only scrapes", () => {
    expect(rules(minimal, "control")).toEqual([
      "http <- namespace ingress-nginx, pods test",
      "metrics <- namespace monitoring",
    ]);
    expect(rules(minimal, "graph-worker")).toEqual(["http <- namespace monitoring"]);
  });

  test("an operator can still turn it off", () => {
    const off = render({ args: setArgs({ ...minimalSets, "networkPolicy.enabled": false }) });
    expect(byKind(off, "NetworkPolicy")).toEqual([]);
  });
});

type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string } } };
const envOf = (objects: K8sObject[], name: string) => {
  const env = named(objects, "Deployment", name).spec.template.spec.containers[0].env as EnvVar[];
  const user = env.find((e) => e.name === "NEO4J_USER")?.value;
  const password = env.find((e) => e.name === "NEO4J_PASSWORD")?.valueFrom?.secretKeyRef?.key;
  return { user, password };
};

describe("Neo4j credentials", () => {
  test("with neo4j.readOnlyUser, tenant and mcp log in as the read-only user; only the graph worker can write", () => {
    const objects = render({
      args: setArgs({
        ...minimalSets,
        "neo4j.readOnlyUser": "archimate_reader",
        "secrets.neo4jReadOnlyPassword": "reader-password",
      }),
    });
    for (const reader of ["site-tenant", "site-mcp"]) {
      expect(envOf(objects, reader)).toEqual({ user: "archimate_reader", password: "NEO4J_READONLY_PASSWORD" });
    }
    expect(envOf(objects, "site-graph-worker")).toEqual({ user: "neo4j", password: "NEO4J_PASSWORD" });
    const secret = named(objects, "Secret", "site-secrets");
    const data = secret.stringData as Record<string, string>;
    expect(Object.keys(data)).toEqual(expect.arrayContaining(["NEO4J_PASSWORD", "NEO4J_READONLY_PASSWORD"]));
  });

  test("the read-only user needs its password; without one (Community) every service uses the writing user", () => {
    expect(() => render({ args: setArgs({ ...minimalSets, "neo4j.readOnlyUser": "archimate_reader" }) })).toThrow(
      /secrets.neo4jReadOnlyPassword is required with neo4j.readOnlyUser/,
    );
    for (const name of ["site-tenant", "site-mcp", "site-graph-worker"]) {
      expect(envOf(minimal, name)).toEqual({ user: "neo4j", password: "NEO4J_PASSWORD" });
    }
  });
});
