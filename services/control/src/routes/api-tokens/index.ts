import { createApiTokenRoute } from "./create.ts";
import { listApiTokensRoute } from "./list.ts";
import { revokeApiTokenRoute } from "./revoke.ts";

export const apiTokenRoutes = [listApiTokensRoute, createApiTokenRoute, revokeApiTokenRoute];
