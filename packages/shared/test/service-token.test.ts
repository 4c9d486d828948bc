import { sign as cryptoSign, generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createServiceTokens, keysFromSecret, serviceKeysFromEnv, signHs256, verifyHs256 } from "../src/index.ts";

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
  describe("reuse", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    test("the same claims reuse one token for 10 s; other claims, or later, sign a new one", async () => {
      vi.useFakeTimers({ now: new Date("2026-11-25T10:00:00Z"), toFake: ["Date"] });
      const first = await tokens.sign(claims, "tenant");
      vi.setSystemTime(new Date("2026-11-25T10:00:09Z"));
      expect(await tokens.sign(claims, "tenant")).toBe(first);
      expect(await tokens.sign({ ...claims, role: "viewer" }, "tenant")).not.toBe(first);
      expect(await tokens.sign(claims, "mcp")).not.toBe(first);
      expect((await tokens.verify(await tokens.sign({ ...claims, role: "viewer" }, "tenant"), "tenant")).role).toBe(
        "viewer",
      );
      vi.setSystemTime(new Date("2026-11-25T10:00:11Z"));
      const later = await tokens.sign(claims, "tenant");
      expect(later).not.toBe(first);
      expect(JSON.parse(Buffer.from(later.split(".")[1]!, "base64url").toString()).iat).toBe(
        Date.parse("2026-11-25T10:00:11Z") / 1000,
      );
    });
    test("a token checked once is still refused for another audience, and once it has expired", async () => {
      vi.useFakeTimers({ now: new Date("2026-11-25T11:00:00Z"), toFake: ["Date"] });
      const t = await tokens.sign(claims, "tenant");
      expect(await tokens.verify(t, "tenant")).toEqual(claims);
      await expect(tokens.verify(t, "mcp")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
      vi.setSystemTime(new Date("2026-11-25T11:00:34Z")); // 30 s lifetime + 5 s skew not yet over
      expect((await tokens.verify(t, "tenant")).userId).toBe("u1");
      vi.setSystemTime(new Date("2026-11-25T11:00:36Z"));
      await expect(tokens.verify(t, "tenant")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    });
    test("the claims handed out cannot be changed by one request for the next", async () => {
      const t = await tokens.sign({ ...claims, teamIds: ["t1"] }, "tenant");
      const got = await tokens.verify(t, "tenant");
      expect(() => {
        (got as { role: string }).role = "owner";
      }).toThrow(TypeError);
      expect((await tokens.verify(t, "tenant")).role).toBe("editor");
    });
  });
  test("a short secret is refused at start-up", () => {
    expect(() => createServiceTokens("short")).toThrow(/32 characters/);
  });

  test("a token is EdDSA-signed and names its key", async () => {
    const [h] = (await tokens.sign(claims, "tenant")).split(".");
    expect(JSON.parse(Buffer.from(h!, "base64url").toString())).toMatchObject({
      alg: "EdDSA",
      kid: expect.any(String),
    });
  });
});

describe("inter-service token keys (Ed25519)", () => {
  const pem = () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    return {
      privatePem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      publicPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
      privateKey,
    };
  };

  test("a verifier holding only the public key cannot sign; the signer's tokens verify", async () => {
    const pair = pem();
    const control = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PRIVATE_KEY: pair.privatePem }, "signer"));
    const tenant = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PUBLIC_KEY: pair.publicPem }, "verifier"));
    expect(await tenant.verify(await control.sign(claims, "mcp"), "mcp")).toEqual(claims);
    await expect(tenant.sign(claims, "tenant")).rejects.toThrow(/no key to sign/);
  });

  test("during a rotation both the new and the previous key are accepted, a third one is not", async () => {
    const [old, next, other] = [pem(), pem(), pem()];
    const tenant = createServiceTokens(
      serviceKeysFromEnv(
        { TENANT_JWT_PUBLIC_KEY: next.publicPem, TENANT_JWT_PUBLIC_KEY_PREVIOUS: old.publicPem },
        "verifier",
      ),
    );
    for (const p of [old, next]) {
      const signer = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PRIVATE_KEY: p.privatePem }, "signer"));
      expect(await tenant.verify(await signer.sign(claims, "tenant"), "tenant")).toEqual(claims);
    }
    const stranger = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PRIVATE_KEY: other.privatePem }, "signer"));
    await expect(tenant.verify(await stranger.sign(claims, "tenant"), "tenant")).rejects.toThrow();
  });

  test("issuer, lifetime and clock skew are checked on properly signed tokens", async () => {
    const pair = pem();
    const tenant = createServiceTokens(serviceKeysFromEnv({ TENANT_JWT_PUBLIC_KEY: pair.publicPem }, "verifier"));
    const kid = JSON.parse(
      Buffer.from(
        (await createServiceTokens({ privateKey: pair.privateKey, publicKeys: [] }).sign(claims, "tenant")).split(
          ".",
        )[0]!,
        "base64url",
      ).toString(),
    ).kid;
    const now = Math.floor(Date.now() / 1000);
    const mint = (payload: Record<string, unknown>) => {
      const body = `${Buffer.from(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid })).toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "svc-control", aud: "tenant", sub: "u1", role: null, ...payload })).toString("base64url")}`;
      return `${body}.${cryptoSign(null, Buffer.from(body), pair.privateKey).toString("base64url")}`;
    };
    expect((await tenant.verify(mint({ iat: now, exp: now + 30 }), "tenant")).userId).toBe("u1");
    expect((await tenant.verify(mint({ iat: now + 4, exp: now + 34 }), "tenant")).userId).toBe("u1"); // within skew
    await expect(tenant.verify(mint({ iat: now + 60, exp: now + 90 }), "tenant")).rejects.toThrow(); // from the future
    await expect(tenant.verify(mint({ iat: now - 60, exp: now - 30 }), "tenant")).rejects.toThrow(); // expired
    await expect(tenant.verify(mint({ iat: now, exp: now + 3600 }), "tenant")).rejects.toThrow(); // lives too long
    await expect(tenant.verify(mint({ iat: now, exp: now + 30, iss: "someone" }), "tenant")).rejects.toThrow();
  });

  test("a bad or non-Ed25519 key is refused at start-up, naming the variable", () => {
    expect(keysFromSecret("x".repeat(32)).publicKeys).toHaveLength(1);
    expect(() => serviceKeysFromEnv({ TENANT_JWT_PUBLIC_KEY: "not a key" }, "verifier")).toThrow(
      /TENANT_JWT_PUBLIC_KEY/,
    );
    expect(() => serviceKeysFromEnv({}, "verifier")).toThrow(/TENANT_JWT_PUBLIC_KEY .*is required/);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(() =>
      serviceKeysFromEnv(
        { TENANT_JWT_PRIVATE_KEY: rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
        "signer",
      ),
    ).toThrow(/must be an Ed25519 key/);
  });
});
