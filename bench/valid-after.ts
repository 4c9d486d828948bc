import { type AccessState, createAccessState, createControlApp, parseEnv, seedAccounts } from "@ams/control";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { interleaved, measure, must, report, section } from "./lib.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";

/**
 * Issue 22, finding 13: what the per-user "valid after" check (with the disabled flag, the platform_admin role and
 * the signed-out token ids, services/control/src/auth/access-state.ts) adds to a request. The same request,
 * GET /api/auth/me with a local access-token cookie, in process on real PostgreSQL, interleaved on two control apps
 * that differ only in that check: the real one (remembered per replica, forgotten on PostgreSQL's NOTIFY) and one
 * that answers "stands" without looking. Then the check alone, remembered and read from the database.
 */
export async function benchValidAfter() {
  const database = await createTestDatabase("ams_bench_valid_after");
  try {
    const tokens = createServiceTokens(SECRET);
    const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
    await seedAccounts(database, env);
    const upstreams = { tenant: { fetch: async () => new Response(null, { status: 404 }) } };
    const checked = createControlApp({ database, tokens, env, upstreams, log: silentLogger });
    const unchecked: AccessState = {
      user: async () => ({ validAfterUs: null, platformAdmin: false, banned: false, banExpiresMs: null }),
      isRevoked: async () => false,
      forgetUser() {},
      noteRevoked() {},
    };
    const without = createControlApp({ database, tokens, env, upstreams, log: silentLogger, accessState: unchecked });
    const login = await checked.request("http://control.bench/api/auth/local/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "archi", password: env.SEED_ARCHI_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .map((l) => must(l.split(";")[0], "a cookie"))
      .join("; ");
    const me = (app: typeof checked) => async () => {
      const res = await app.request("http://control.bench/api/auth/me", { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET /api/auth/me: ${res.status}`);
      return res.text();
    };

    section("Per-user valid-after check: GET /api/auth/me (local access token), with and without the check");
    const [bare, withCheck] = await interleaved([me(without), me(checked)], { iterations: 5000, warmup: 500 });
    const added = withCheck!.median - bare!.median;
    report("in process: without the check, median", bare!.median, null, "(the floor)", true);
    report(
      `in process: with the check, median (+${added.toFixed(3)} ms)`,
      withCheck!.median,
      bare!.median,
      "<= 0.05 ms added",
      added <= 0.05,
    );

    const [row] = await database.rows<{ id: string }>(sql`select id from users where username = 'archi'`);
    const userId = must(row, "archi").id;
    const state = createAccessState(database);
    await state.user(userId);
    for (let i = 0; i < 100 && !(await remembered(state, userId)); i++) await new Promise((r) => setTimeout(r, 20));
    const warm = await measure(() => Promise.all([state.user(userId), state.isRevoked("bench-token-id")]), {
      iterations: 20_000,
      warmup: 1000,
    });
    report("the check alone, remembered (per request), median", warm.median, null, "<= 0.05 ms", warm.median <= 0.05);
    const cold = await measure(
      () => {
        state.forgetUser(userId);
        return state.user(userId);
      },
      { iterations: 2000, warmup: 200 },
    );
    report("the check alone, read from PostgreSQL (after a change), median", cold.median, null, "(for scale)", true);
  } finally {
    await database.drop();
  }
}

/** Whether the state now answers from memory (its LISTEN is in place): a remembered read takes no round trip. */
async function remembered(state: AccessState, userId: string): Promise<boolean> {
  await state.user(userId);
  const t = performance.now();
  await state.user(userId);
  return performance.now() - t < 0.05;
}
