import type { K8sObject } from "./render.ts";

/**
 * Validates a rendered object against the Kubernetes OpenAPI schema of its apiVersion and kind, through the
 * kubernetes-models package (one generated validator per built-in kind). Returns the problems, empty when valid.
 */
export async function kubernetesProblems(object: K8sObject): Promise<string[]> {
  const [group, version] = object.apiVersion.includes("/")
    ? object.apiVersion.split("/")
    : [undefined, object.apiVersion];
  // Built-in kinds from kubernetes-models; the Prometheus Operator's ServiceMonitor from its own models package.
  const modulePath =
    group === "monitoring.coreos.com"
      ? `@kubernetes-models/prometheus-operator/${group}/${version}/${object.kind}`
      : group
        ? `kubernetes-models/${group}/${version}/${object.kind}`
        : `kubernetes-models/${version}/${object.kind}`;
  let Model: new (data: unknown) => { validate(): void };
  try {
    const module = await import(modulePath);
    Model = module[object.kind] ?? module.default;
  } catch {
    return [`${object.kind} ${object.metadata?.name}: no schema for ${object.apiVersion} ${object.kind}`];
  }
  try {
    new Model(object).validate();
    return [];
  } catch (err) {
    return [`${object.kind} ${object.metadata?.name}: ${(err as Error).message}`];
  }
}
