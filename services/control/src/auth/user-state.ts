import { type AccessState, isDisabled } from "./access-state.ts";
import type { Authenticator } from "./authenticate.ts";

/**
 * Wraps an authenticator so that a disabled or deleted user's session or access token is refused, on every replica,
 * at the next request after the change commits. The user's state comes from the one per-user check every request
 * makes (access-state.ts: users.banned, role and tokens_valid_after, remembered per replica and forgotten when
 * PostgreSQL announces a change). Personal API tokens are resolved with their owner's row already
 * (api-token-lookup.ts refuses a disabled owner in that query); an identity-provider token may name a user who has
 * no row yet (first request before any browser sign-in).
 */
export function refuseDisabledUsers(authenticate: Authenticator, state: AccessState, clock: () => Date): Authenticator {
  return async (c) => {
    const principal = await authenticate(c);
    if (!principal || principal.provider === "api-token") return principal;
    const user = await state.user(principal.userId);
    if (user === null) return principal.provider === "oidc" ? principal : null;
    return isDisabled(user, clock().getTime()) ? null : principal;
  };
}
