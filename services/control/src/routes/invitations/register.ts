import { clientIp } from "../../auth/client-ip.ts";
import { startLocalSession } from "../../auth/session.ts";
import { identityOf } from "../../auth/users.ts";
import { controlRoute } from "../../http/route.ts";
import { RegisteredAccount, RegisterInput } from "../../invitations/schemas.ts";
import { signInNewAccount } from "../../session/sign-in-new-account.ts";
import { registerFromInvitation } from "../../verbs/invitations.ts";
import { TokenParam } from "./params.ts";

/** Anonymous: the invitation token is the proof of the address. On success this browser is signed in. */
export const registerFromInvitationRoute = controlRoute(
  {
    method: "post",
    path: "/api/invitations/{token}/register",
    operationId: "registerFromInvitation",
    tags: ["invitations"],
    who: "public",
    public: true,
    params: TokenParam,
    body: RegisterInput,
    output: {
      schema: RegisteredAccount,
      status: 201,
      description:
        "The account exists (its e-mail the invited address, verified), the invitation is accepted, the person is a " +
        "member with the invited role and signed in (the profile's session cookies are set)",
    },
    commonProblems: false,
    problems: {
      403: "The organization is suspended",
      404: "The link is not valid",
      409: "An account uses the invited address already (sign in and accept), or the username is taken (`errors`)",
      410: "Accepted (possibly by a concurrent request), revoked or expired",
      422: "Validation failed (username, name, the password policy); `errors` lists the fields",
      429: "Too many accounts created from this client address; see Retry-After",
    },
  },
  async ({ ctx, c, params, body }) => {
    const ip = clientIp(c, ctx.env.TRUST_PROXY_HOPS);
    const done = await registerFromInvitation({ ctx, input: { ...body, token: params.token, clientIp: ip } });
    if (ctx.session) await signInNewAccount(c, ctx, done.user, body.password);
    else await startLocalSession(c, ctx, identityOf(done.user));
    const { id, username, name, email } = done.user;
    return { user: { id, username, name, email }, organization: done.organization, role: done.role };
  },
);
