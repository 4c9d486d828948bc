let last = 0;

/**
 * Microseconds since the epoch, from `now` (the app's clock), and strictly increasing within this process: two
 * instants taken in the same millisecond (a password change and the new session it starts, a sign-out and the
 * next sign-in) are still ordered. Access tokens carry theirs as iat_us; users.tokens_valid_after is one.
 */
export function nextInstantUs(now: Date): number {
  last = Math.max(now.getTime() * 1000, last + 1);
  return last;
}
