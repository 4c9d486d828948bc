import { z } from "@hono/zod-openapi";

/** The handle of a pending authorization request, as the authorization endpoint put it in the consent page's URL. */
export const OAuthRequestParams = z.object({ handle: z.string().min(1).max(200) });

const GrantableWorkspace = z.object({ id: z.string(), name: z.string() });

/** What the consent page shows: who asks, where the answer goes, and what the user may grant. */
export const OAuthConsentRequest = z
  .object({
    client_name: z.string(),
    redirect_uri: z.string(),
    /** The host the browser returns to, shown prominently (a client's name is whatever it registered). */
    redirect_host: z.string(),
    username: z.string(),
    /** The API token the grant becomes on the tokens page. */
    token_name: z.string(),
    /** false for an Admin account, which holds no personal API tokens: it may only deny. */
    can_grant: z.boolean(),
    organizations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        role: z.string(),
        can_change_models: z.boolean(),
        workspaces: z.array(GrantableWorkspace),
      }),
    ),
    /** Anti-forgery value to send back with the decision. */
    consent: z.string(),
    expires_at: z.string(),
  })
  .openapi("OAuthConsentRequest");

export const OAuthDecisionInput = z
  .object({
    decision: z.enum(["allow", "deny"]),
    consent: z.string().min(1).max(200),
    organization_id: z.string().min(1).max(100).optional(),
    workspace_id: z.string().min(1).max(100).nullable().optional(),
  })
  .openapi("OAuthDecisionInput");

/** Where the browser goes next: the client's redirect URI with the code (or error=access_denied) and state. */
export const OAuthDecision = z.object({ redirect_to: z.string() }).openapi("OAuthDecision");

export type OAuthConsentRequest = z.infer<typeof OAuthConsentRequest>;
export type OAuthDecisionInput = z.infer<typeof OAuthDecisionInput>;
export type OAuthDecision = z.infer<typeof OAuthDecision>;
