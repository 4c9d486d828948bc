import { startLocalSession } from "../../auth/session.ts";
import { controlRoute } from "../../http/route.ts";
import { SecondStepInput } from "../../two-factor/schemas.ts";
import { completeTwoFactorSignIn } from "../../verbs/two-factor-sign-in.ts";
import { SignedIn, toCurrentIdentity } from "../auth/schemas.ts";

/** The second step of a local sign-in: on success this browser gets a new session (its cookies). */
export const secondStepRoute = controlRoute(
  {
    method: "post",
    path: "/api/auth/local/login/two-factor",
    operationId: "localLoginSecondStep",
    tags: ["auth"],
    who: "public",
    body: SecondStepInput,
    output: { schema: SignedIn, description: "Signed in; access_token, refresh_token and auth_provider cookies set" },
    commonProblems: false,
    problems: {
      401: "Wrong or reused code, or the challenge is used, expired or out of attempts",
      422: "Validation failed; `errors` lists the fields",
      429: "Too many wrong codes for this account; see Retry-After",
    },
  },
  async ({ ctx, c, body }) => {
    const identity = await completeTwoFactorSignIn({ ctx, input: body });
    await startLocalSession(c, ctx, identity);
    return { ...toCurrentIdentity(identity), must_change_password: identity.mustChangePassword };
  },
);
