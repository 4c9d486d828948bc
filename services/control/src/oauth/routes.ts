import { controlRoute } from "../http/route.ts";
import { decideAuthorizationRequest, describeAuthorizationRequest } from "../verbs/oauth.ts";
import { OAuthConsentRequest, OAuthDecision, OAuthDecisionInput, OAuthRequestParams } from "./schemas.ts";

/**
 * The consent page's two calls (the gateway's table allows them to a signed-in session only: an API token cannot
 * approve a grant).
 */
export const describeAuthorizationRequestRoute = controlRoute(
  {
    method: "get",
    path: "/api/oauth/requests/{handle}",
    operationId: "describeOAuthRequest",
    tags: ["oauth"],
    who: "signed-in",
    description: "A pending MCP client authorization request, for the consent page; opening it makes it yours.",
    params: OAuthRequestParams,
    output: { schema: OAuthConsentRequest, description: "The request and what you may grant" },
    problems: { 404: "No such request (or another user's)", 410: "Already answered or expired" },
  },
  ({ ctx, params }) => describeAuthorizationRequest({ ctx, input: params }),
);

export const decideAuthorizationRequestRoute = controlRoute(
  {
    method: "post",
    path: "/api/oauth/requests/{handle}/decision",
    operationId: "decideOAuthRequest",
    tags: ["oauth"],
    who: "signed-in",
    description:
      "Allow (for one organization and optionally one workspace) or deny; answers where to send the browser.",
    params: OAuthRequestParams,
    body: OAuthDecisionInput,
    output: { schema: OAuthDecision, description: "The client's redirect URI with the answer" },
    problems: { 404: "No such request (or another user's)", 410: "Already answered or expired" },
  },
  ({ ctx, params, body }) => decideAuthorizationRequest({ ctx, input: { ...body, handle: params.handle } }),
);

export const oauthConsentRoutes = [describeAuthorizationRequestRoute, decideAuthorizationRequestRoute];
