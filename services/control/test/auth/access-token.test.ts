import { signHs256 } from "@ams/shared";
import { must } from "@ams/shared/testing";
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
  const verify = async (token: string, by = tokens) => (await by.read(token))?.identity ?? null;

  test("round-trips the identity, with the identity-provider claim shape", async () => {
    const token = await tokens.sign(identity);
    const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    expect(payload).toMatchObject({ iss: LOCAL_ISSUER, sub: identity.userId, preferred_username: "ann" });
    expect(payload.exp - payload.iat).toBe(15 * 60);
    expect(await verify(token)).toMatchObject({ userId: identity.userId, username: "ann", provider: "local" });
  });

  test("refuses expiry, another secret, a tampered payload, alg none and another issuer", async () => {
    const token = await tokens.sign(identity);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());

    // Verified (and remembered) first, then refused the second after it expired.
    expect(await verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 15 * 60 * 1000);
    expect(await verify(token)).not.toBeNull();
    now = new Date(now.getTime() + 1000);
    expect(await verify(token)).toBeNull();
    now = new Date("2026-11-22T10:00:00Z");

    const other = createLocalAccessTokens("another-secret-another-secret-another", () => now);
    expect(await verify(token, other)).toBeNull();
    expect(
      await verify(`${header}.${b64({ ...claims, realm_access: { roles: ["platform_admin"] } })}.${signature}`),
    ).toBeNull();
    expect(await verify(`${b64({ alg: "none", typ: "JWT" })}.${payload}.`)).toBeNull();
    // Correctly signed with the same secret, but issued by someone else.
    const foreign = signHs256({ ...claims, iss: "someone-else" }, Buffer.from(SECRET));
    expect(await verify(foreign)).toBeNull();
    expect(await verify(signHs256(claims, Buffer.from(SECRET)))).not.toBeNull();
    expect(await verify("not-a-jwt")).toBeNull();
  });

  test("two tokens signed in the same millisecond are two tokens: each has its own jti, and iat_us", async () => {
    const first = await tokens.sign(identity);
    const second = await tokens.sign(identity);
    expect(second).not.toBe(first);
    const a = must((await tokens.read(first)) ?? undefined, "the first token's claims");
    const b = must((await tokens.read(second)) ?? undefined, "the second token's claims");
    expect(a.tokenId).not.toBe(b.tokenId);
    expect(a.issuedAtUs).toBeGreaterThanOrEqual(now.getTime() * 1000);
    expect(b.issuedAtUs).toBeGreaterThan(a.issuedAtUs);
  });

  test("a token without jti or iat_us (signed before they existed) is refused", async () => {
    const claims = JSON.parse(
      Buffer.from(must((await tokens.sign(identity)).split(".")[1], "the payload"), "base64url").toString(),
    );
    const { jti: _jti, ...withoutJti } = claims;
    const { iat_us: _iatUs, ...withoutUs } = claims;
    expect(await verify(signHs256(claims, Buffer.from(SECRET)))).not.toBeNull();
    expect(await verify(signHs256(withoutJti, Buffer.from(SECRET)))).toBeNull();
    expect(await verify(signHs256(withoutUs, Buffer.from(SECRET)))).toBeNull();
  });
});
