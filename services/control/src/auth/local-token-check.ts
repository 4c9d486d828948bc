import type { AccessState } from "./access-state.ts";
import type { LocalAccessToken } from "./access-token.ts";

/**
 * Whether a verified local access token still stands, checked on every request: its user exists, it was issued at
 * or after the user's valid-after, it claims platform_admin only while the user still
 * has it (a token from before losing the role is refused; the browser's refresh gets one without it), and it was
 * not signed out (its jti). A disabled user is refused by the wrapper of every authenticator (user-state.ts), from
 * the same remembered row.
 */
export async function localTokenStands(state: AccessState, token: LocalAccessToken): Promise<boolean> {
  const user = await state.user(token.identity.userId);
  if (!user) return false;
  if (user.validAfterUs !== null && token.issuedAtUs < user.validAfterUs) return false;
  if (token.identity.platformAdmin && !user.platformAdmin) return false;
  return !(await state.isRevoked(token.tokenId));
}
