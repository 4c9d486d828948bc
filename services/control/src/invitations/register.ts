import { type Database, invitations, memberships, organizations, users } from "@ams/db";
import { AppError } from "@ams/shared";
import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record.ts";
import { createLocalUser } from "../auth/create-user.ts";
import { normalizeUsername, type UserRow } from "../auth/users.ts";
import { isUniqueViolation } from "../http/db-errors.ts";
import { claimInvitation, goneReason, notFound } from "./redeem.ts";
import type { RegisterInput } from "./schemas.ts";
import { invitationTokenHash, looksLikeInvitationToken } from "./tokens.ts";

export type Registered = {
  user: UserRow;
  organization: { id: string; name: string };
  role: string;
};

/**
 * An invited person without an account creates one from the link (anonymous: the clear token, which only the
 * invited mailbox received, is the proof of the address). In ONE transaction: the account (a local password, the
 * invited address already verified), the compare-and-swap claim of the invitation (exactly as accept: of any number
 * of concurrent uses one wins, the others roll their account back and answer 410) and the membership with the
 * invited role. An address that has an account already signs in and accepts instead (409); a taken username is 409
 * naming the field.
 */
export async function registerFromInvitation(
  database: Database,
  token: string,
  input: RegisterInput,
  now: Date,
  address: string | null,
): Promise<Registered> {
  if (!looksLikeInvitationToken(token)) throw notFound();
  const [found] = await database.db
    .select({ invitation: invitations, organizationName: organizations.name, enabled: organizations.enabled })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.tokenHash, invitationTokenHash(token)));
  if (!found) throw notFound();
  const gone = goneReason(found.invitation, now);
  if (gone) throw gone;
  if (!found.enabled) throw new AppError("FORBIDDEN", "This organization is suspended");
  const email = found.invitation.email.toLowerCase();
  const username = normalizeUsername(input.username);
  const [emailTaken] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (emailTaken) throw accountExists(email);
  const [usernameTaken] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (usernameTaken) throw usernameConflict(username);

  try {
    return await database.db.transaction(async (tx) => {
      const user = await createLocalUser(tx, {
        username: input.username,
        name: input.name,
        password: input.password,
        email,
        emailVerified: true,
      });
      const claimed = await claimInvitation(tx, found.invitation.id, email, user.id, now);
      await tx
        .insert(memberships)
        .values({ organizationId: claimed.organizationId, userId: user.id, role: claimed.role, createdAt: now });
      const self = { id: user.id, name: user.username };
      await recordAuditEvent(tx, {
        kind: "user.created",
        actor: self,
        target: self,
        address,
        details: { via: "invitation", email },
      });
      await recordAuditEvent(tx, {
        kind: "invitation.accepted",
        actor: self,
        target: self,
        organizationId: claimed.organizationId,
        address,
        details: { role: claimed.role, new_account: true },
      });
      return { user, organization: { id: claimed.organizationId, name: found.organizationName }, role: claimed.role };
    });
  } catch (err) {
    // A concurrent registration took the username or the address between the checks above and the insert.
    if (isUniqueViolation(err))
      throw /email/.test(constraintOf(err)) ? accountExists(email) : usernameConflict(username);
    throw err;
  }
}

function constraintOf(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const name =
      (e as { constraint_name?: unknown; constraint?: unknown }).constraint_name ??
      (e as { constraint?: unknown }).constraint;
    if (typeof name === "string") return name;
  }
  return "";
}

const accountExists = (email: string) =>
  new AppError(
    "CONFLICT",
    `An account with the address ${email} exists already: sign in with it, then accept the invitation`,
  );

const usernameConflict = (username: string) =>
  new AppError("CONFLICT", `The username '${username}' is taken; choose another`, {
    errors: [{ path: "username", message: "is taken" }],
  });
