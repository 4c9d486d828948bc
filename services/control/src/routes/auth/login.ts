import { SignInInput } from "../../accounts/schemas.ts";
import { clientIp } from "../../auth/client-ip.ts";
import { startLocalSession } from "../../auth/session.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { controlRoute } from "../../http/route.ts";
import { TwoFactorChallenge } from "../../two-factor/schemas.ts";
import { signIn } from "../../verbs/accounts.ts";
import { twoFactorChallengeFor } from "../../verbs/two-factor-sign-in.ts";
import { SignedIn, toCurrentIdentity } from "./schemas.ts";

/**
 * Signs in with a local account; on success this browser gets a new session (its cookies). An account with
 * two-factor gets no session yet: the answer is a challenge for the second step (POST /api/auth/local/login/two-factor).
 */
const loginRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/local/login",
    operationId: "localLogin",
    tags: ["auth"],
    who: "public",
    body: SignInInput,
    output: {
      schema: SignedIn.or(TwoFactorChallenge),
      description:
        "Signed in (access_token, refresh_token and auth_provider cookies set), or the two-factor challenge (no cookies)",
    },
    commonProblems: false,
    problems: {
      401: "Not authenticated",
      422: "Validation failed; `errors` lists the fields",
      429: "Too many failed attempts; see Retry-After",
    },
  },
  async ({ ctx, c, body }) => {
    const identity = await signIn({ ctx, input: { ...body, clientIp: clientIp(c, ctx.env.TRUST_PROXY_HOPS) } });
    const challenge = await twoFactorChallengeFor({ ctx, identity });
    if (challenge) return challenge;
    await startLocalSession(c, ctx, identity);
    return { ...toCurrentIdentity(identity), must_change_password: identity.mustChangePassword };
  },
);

export const registerLogin = (app: App, ctx: ControlContext) => loginRoute.register(app, ctx);
