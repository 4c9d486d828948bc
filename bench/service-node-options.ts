import { readFileSync } from "node:fs";

/**
 * The NODE_OPTIONS the service images run every service with (docker/Dockerfile's runtime stage; the chart's
 * `nodeOptions` and `pnpm start` carry the same, test/deploy checks they agree), read from the tree this file is in:
 * a bench that starts a service, or a process standing in for one, starts it as deployed. Under `pnpm bench:compare`
 * this file is copied into the other tree, so each tree's processes get that tree's options. Empty when it sets none.
 */
export function serviceNodeOptions(): string {
  const dockerfile = readFileSync(new URL("../docker/Dockerfile", import.meta.url), "utf8");
  const runtime = dockerfile.slice(dockerfile.indexOf(" AS runtime"));
  return /^ENV .*\bNODE_OPTIONS=(\S+|"[^"]*")/m.exec(runtime)?.[1]?.replace(/^"|"$/g, "") ?? "";
}

/** `env` with the services' NODE_OPTIONS set (left as it is when the tree sets none). */
export function withServiceNodeOptions<T extends Record<string, string | undefined>>(env: T): T {
  const options = serviceNodeOptions();
  return options ? { ...env, NODE_OPTIONS: options } : env;
}
