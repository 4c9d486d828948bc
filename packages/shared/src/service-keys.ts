import { createHash, createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from "node:crypto";

/**
 * Keys of the inter-service token (Ed25519). Control holds the private key; tenant and mcp hold only public keys,
 * so they can verify but never mint. During a rotation they accept two public keys (the new and the previous one).
 */
export type ServiceKeys = { privateKey?: KeyObject; publicKeys: KeyObject[] };

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * A key pair derived from a shared secret: for the standalone shape and development (one process holds both
 * halves anyway). The split shape in production is given real keys instead.
 */
export function keysFromSecret(secret: string): ServiceKeys {
  if (secret.length < 32) throw new Error("TENANT_JWT_SECRET must be at least 32 characters");
  const seed = createHash("sha256").update(`ams-service-token:${secret}`).digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  return { privateKey, publicKeys: [createPublicKey(privateKey)] };
}

/** An Ed25519 private key from PEM (PKCS#8, as `openssl genpkey -algorithm ed25519` writes it). */
export function parsePrivateKey(pem: string, name = "TENANT_JWT_PRIVATE_KEY"): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`${name} is not a PEM private key: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`${name} must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

/** An Ed25519 public key from PEM: a PUBLIC KEY block (`openssl pkey -pubout`) or a certificate holding one. */
export function parsePublicKey(pem: string, name = "TENANT_JWT_PUBLIC_KEY"): KeyObject {
  let key: KeyObject;
  try {
    key = pem.includes("BEGIN CERTIFICATE") ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  } catch (err) {
    throw new Error(`${name} is not a PEM public key or certificate: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`${name} must be an Ed25519 key, not ${key.asymmetricKeyType}`);
  return key;
}

/** The key id written in a token's header: the first 16 characters of the SPKI's SHA-256, base64url. */
export function keyId(publicKey: KeyObject): string {
  return createHash("sha256")
    .update(publicKey.export({ format: "der", type: "spki" }))
    .digest("base64url")
    .slice(0, 16);
}

/**
 * The keys a service reads from its environment: control signs with TENANT_JWT_PRIVATE_KEY, tenant and mcp verify
 * with TENANT_JWT_PUBLIC_KEY (and TENANT_JWT_PUBLIC_KEY_PREVIOUS during a rotation). Without any of them, a pair
 * derived from TENANT_JWT_SECRET (standalone and development). Throws naming a bad value.
 */
export function serviceKeysFromEnv(env: Record<string, string | undefined>, role: "signer" | "verifier"): ServiceKeys {
  const given = (name: string) => {
    const value = env[name]?.trim();
    return value ? value.replace(/\\n/g, "\n") : undefined;
  };
  const privatePem = given("TENANT_JWT_PRIVATE_KEY");
  const publicPems = [given("TENANT_JWT_PUBLIC_KEY"), given("TENANT_JWT_PUBLIC_KEY_PREVIOUS")];
  if (role === "signer" && privatePem) {
    const privateKey = parsePrivateKey(privatePem);
    return { privateKey, publicKeys: [createPublicKey(privateKey)] };
  }
  if (role === "verifier" && publicPems[0]) {
    return {
      publicKeys: [
        parsePublicKey(publicPems[0]),
        ...(publicPems[1] ? [parsePublicKey(publicPems[1], "TENANT_JWT_PUBLIC_KEY_PREVIOUS")] : []),
      ],
    };
  }
  const secret = env.TENANT_JWT_SECRET;
  if (!secret) {
    throw new Error(
      role === "signer"
        ? "TENANT_JWT_PRIVATE_KEY (or, standalone, TENANT_JWT_SECRET) is required"
        : "TENANT_JWT_PUBLIC_KEY (or, standalone, TENANT_JWT_SECRET) is required",
    );
  }
  const derived = keysFromSecret(secret);
  return role === "signer" ? derived : { publicKeys: derived.publicKeys };
}
