import { memoryLogger } from "@ams/shared";
import { createControlApp } from "../../src/app.ts";
import { createLocalUser } from "../../src/auth/create-user.ts";
import type { ControlDeps } from "../../src/deps.ts";
import { type Credentials, createHarness, type Harness, type TestUser } from "./harness.ts";

export type IdentityHarnessOptions = {
  env?: Record<string, string>;
  /** Extra control deps (mailer, SSO runtime, identity admin, ...), built once the database exists. */
  deps?: (h: Harness) => Partial<ControlDeps>;
};

/**
 * The control harness (fresh PostgreSQL database, data helpers, local sign-in) plus a control app built with
 * extra deps on the same database. Requests go to that app; errors it logs are kept for assertions.
 */
export async function createIdentityHarness(opts: IdentityHarnessOptions = {}) {
  const base = await createHarness({ env: opts.env });
  const log = memoryLogger("control");
  const app = createControlApp({
    database: base.database,
    tokens: base.tokens,
    env: base.env,
    clock: base.clock.now,
    upstreams: { tenant: base.recorder },
    log,
    ...opts.deps?.(base),
  });

  async function call(
    method: string,
    path: string,
    o: { as?: Credentials; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers = new Headers(o.headers);
    if (o.as && "cookies" in o.as) {
      // A browser's write names its page's origin (the CSRF check refuses cookie writes without a trusted one).
      if (!headers.has("origin")) headers.set("origin", "http://control.test");
      headers.set(
        "cookie",
        Object.entries(o.as.cookies)
          .map(([k, v]) => `${k}=${v}`)
          .join("; "),
      );
    }
    if (o.as && "bearer" in o.as) headers.set("authorization", `Bearer ${o.as.bearer}`);
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers.set("content-type", "application/json");
    }
    return app.request(`http://control.test${path}`, { method, headers, body });
  }

  return {
    ...base,
    app,
    call,
    get logged() {
      return log.records.map((r) => ({ message: r.msg, err: r.err }));
    },
    /** A local account whose e-mail address is verified (the harness's own users are unverified). */
    async verifiedUser(username: string, email = `${username}@test.example`): Promise<TestUser> {
      const password = `${username}-secret-pw-123`;
      const row = await createLocalUser(base.db, { username, password, email, emailVerified: true });
      return { id: row.id, username: row.username, password };
    },
  };
}

export type IdentityHarness = Awaited<ReturnType<typeof createIdentityHarness>>;
