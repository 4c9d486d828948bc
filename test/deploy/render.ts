import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { helmBinary } from "./helm-binary.ts";

export const chartDir = fileURLToPath(new URL("../../helm/archimate", import.meta.url));
export const examplesDir = fileURLToPath(new URL("../../helm/examples", import.meta.url));

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  [key: string]: any;
};

/** The secrets and host every install needs, as --set arguments. */
export const minimalSets = {
  "ingress.host": "archimate.example.com",
  "secrets.databaseUrl": "postgres://archimate:pw@postgresql:5432/archimate",
  "secrets.neo4jPassword": "neo4j-password",
};

export function helm(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(helmBinary(), args, {
    encoding: "utf8",
    env: { ...process.env, HELM_CACHE_HOME: "/tmp/ams-helm/cache", HELM_CONFIG_HOME: "/tmp/ams-helm/config" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function setArgs(sets: Record<string, string | number | boolean>): string[] {
  return Object.entries(sets).flatMap(([k, v]) => [typeof v === "string" ? "--set-string" : "--set", `${k}=${v}`]);
}

/** `helm template` (with the test hooks); throws with Helm's message when it refuses. */
export function render(opts: { release?: string; valuesFiles?: string[]; args?: string[] } = {}): K8sObject[] {
  const args = [
    "template",
    opts.release ?? "site",
    chartDir,
    "--namespace",
    "archimate",
    ...(opts.valuesFiles ?? []).flatMap((f) => ["-f", f]),
    ...(opts.args ?? []),
  ];
  const result = helm(args);
  if (result.status !== 0) throw new Error(`helm template failed (${result.status}): ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
export const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered chart`);
  return found;
};
