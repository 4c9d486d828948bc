/**
 * oidc-provider ships no type declarations; the tests' real provider (oidc-realm.ts) needs only this much.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type KoaContextWithOIDC = { type: string; body: unknown };
  export type ClientLike = { grantTypeAllowed(type: string): boolean };
  export type Configuration = Record<string, unknown> & {
    clients?: Record<string, unknown>[];
    interactions?: { url(ctx: KoaContextWithOIDC, interaction: { uid: string }): Promise<string> };
    issueRefreshToken?(ctx: KoaContextWithOIDC, client: ClientLike, source: unknown): Promise<boolean>;
    findAccount?(
      ctx: KoaContextWithOIDC,
      sub: string,
    ): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> } | undefined>;
    extraTokenClaims?(ctx: KoaContextWithOIDC, token: unknown): Promise<Record<string, unknown> | undefined>;
    renderError?(ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: unknown): Promise<void>;
  };
  export type InteractionDetails = {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    grantId?: string;
  };
  export class Grant {
    constructor(opts: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: typeof Grant & { find(id: string): Promise<Grant | undefined> };
  }
}
