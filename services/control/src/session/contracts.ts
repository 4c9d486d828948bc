import { IdParam } from "../http/openapi.ts";
import { controlRoute } from "../http/route.ts";
import { listSessions, listSignInProviders, revokeSession } from "../verbs/sessions.ts";
import { SessionList, SignInProviders } from "./schemas.ts";

/** GET /auth/providers: the enabled OAuth/OIDC providers and where a browser starts each sign-in. */
export const listSignInProvidersRoute = controlRoute(
  {
    method: "get",
    path: "/auth/providers",
    operationId: "listSignInProviders",
    tags: ["auth"],
    who: "public",
    public: true,
    commonProblems: false,
    output: { schema: SignInProviders, description: "The providers the sign-in page offers (session profile)" },
  },
  ({ ctx }) => listSignInProviders({ ctx }),
);

/** GET /auth/sessions: the caller's live sessions (never their tokens). */
export const listSessionsRoute = controlRoute(
  {
    method: "get",
    path: "/auth/sessions",
    operationId: "listSessions",
    tags: ["auth"],
    who: "signed-in",
    output: { schema: SessionList, description: "The caller's sessions, newest first (session profile)" },
  },
  ({ ctx }) => listSessions({ ctx }),
);

/** DELETE /auth/sessions/{id}: ends one of the caller's sessions, this one included. */
export const revokeSessionRoute = controlRoute(
  {
    method: "delete",
    path: "/auth/sessions/{id}",
    operationId: "revokeSession",
    tags: ["auth"],
    who: "signed-in",
    params: IdParam,
    problems: { 404: "No such session of the caller" },
  },
  ({ ctx, params }) => revokeSession({ ctx, input: params }),
);

/** The session profile's JSON routes; better-auth's own endpoints are registered in routes.ts. */
export const sessionRoutes = [listSignInProvidersRoute, listSessionsRoute, revokeSessionRoute];
