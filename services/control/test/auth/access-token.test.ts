import { signHs256 } from "@ams/shared";
import { describe, expect, test } from "vitest";
import { createLocalAccessTokens, LOCAL_ISSUER } from "../../src/auth/access-token.ts";
import type { Identity } from "../../src/auth/principal.ts";

const SECRET = "access-secret-access-secret-access-01";
const identity: Identity = {
  userId: "4b0c3a8e-0000-4000-8000-000000000001",
  username: "ann",
  name: "Ann",
  email: "ann@example.test",
  emailVerified: true,
  platformAdmin: false,
  mustChangePassword: false,
  provider: "local",
};

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("local access JWT", () => {
  let now = new Date("2026-11-22T10:00:00Z");
  const tokens = createLocalAccessTokens(SECRET, () => now);

  test("round-trips the identity, with the identity-provider claim shape", async () => {
    const token = await tokens.sign(identity);
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    expect(payload).toMatchObject({ iss: LOCAL_ISSUER, sub: identity.userId, preferred_username: "ann" });
    expect(payload.exp - payload.iat).toBe(15 * 60);
    expect(await tokens.verify(token)).toMatchObject({ userId: identity.userId, username: "ann", provider: "local" });
  });

  test("refuses expiry, another secret, a tampered payload, alg none and another issuer", async () => {
    const token = await tokens.sign(identity);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());

    // Verified (and remembered) first, then refused the second after it expired.
    expect(await tokens.verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 15 * 60 * 1000);
    expect(await tokens.verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 1000);
    expect(await tokens.verify(token)).toBeNull();
    now = new Date("2026-11-22T10:00:00Z");

    const other = createLocalAccessTokens("another-secret-another-secret-another", () => now);
    expect(await other.verify(token)).toBeNull();
    expect(
      await tokens.verify(`${header}.${b64({ ...claims, realm_access: { roles: ["platform_admin"] } })}.${signature}`),
    ).toBeNull();
    expect(await tokens.verify(`${b64({ alg: "none", typ: "JWT" })}.${payload}.`)).toBeNull();
    // Correctly signed with the same secret, but issued by someone else.
    const foreign = signHs256({ ...claims, iss: "someone-else" }, Buffer.from(SECRET));
    expect(await tokens.verify(foreign)).toBeNull();
    expect(await tokens.verify(signHs256(claims, Buffer.from(SECRET)))).not.toBeNull();
    expect(await tokens.verify("not-a-jwt")).toBeNull();
  });
});
