import { describe, expect, test } from "vitest";
import { createServiceTokens, signHs256, verifyHs256 } from "../src/index.ts";

const claims = {
  userId: "u1",
  username: "ann",
  organizationId: "o1",
  workspaceId: "w1",
  role: "editor" as const,
  platformAdmin: false,
  apiTokenId: null,
  pinnedWorkspaceId: "w1",
};

describe("inter-service token", () => {
  const tokens = createServiceTokens("a-secret-that-is-long-enough-for-hs256!!");
  test("round-trips the claims for the right audience", async () => {
    const t = await tokens.sign(claims, "tenant");
    expect(await tokens.verify(t, "tenant")).toEqual(claims);
  });
  test("refuses another audience, another secret, a tampered payload, alg none and an expired token", async () => {
    const t = await tokens.sign(claims, "tenant");
    await expect(tokens.verify(t, "mcp")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const other = createServiceTokens("another-secret-that-is-long-enough-too!!");
    await expect(other.verify(t, "tenant")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const [h, p, s] = t.split(".");
    const forged = JSON.parse(Buffer.from(p!, "base64url").toString());
    forged.role = "owner";
    await expect(
      tokens.verify(`${h}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${s}`, "tenant"),
    ).rejects.toThrow();
    const none = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
    await expect(tokens.verify(`${none}.${p}.`, "tenant")).rejects.toThrow();
    const key = Buffer.from("a-secret-that-is-long-enough-for-hs256!!");
    const expired = signHs256(
      { iss: "svc-control", aud: "tenant", sub: "u1", exp: Math.floor(Date.now() / 1000) - 60 },
      key,
    );
    expect(verifyHs256(expired, key, { issuer: "svc-control", audience: "tenant" })).toBeNull();
    await expect(tokens.verify("garbage", "tenant")).rejects.toThrow();
  });
  test("a short secret is refused at start-up", () => {
    expect(() => createServiceTokens("short")).toThrow(/32 characters/);
  });
});
