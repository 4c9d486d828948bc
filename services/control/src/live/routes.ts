import { z } from "@hono/zod-openapi";
import { authorizeAgain } from "../gateway/middleware.ts";
import { IdParam } from "../http/openapi.ts";
import { controlRoute } from "../http/route.ts";
import { PresenceInput, PresenceList } from "./presence-schemas.ts";

const EventsQuery = z.object({
  since: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Start after this revision (the one the page loaded); a `Last-Event-ID` header wins"),
});

const EVENTS_DESCRIPTION = `Server-Sent Events of the workspace, authorized like a read of it. Events:
\`ready\` {revision} (live after this revision), \`change\` (id \`<workspace>:<revision>\`, data: a change group with
its objects' new state or deletion), \`presence\` {present, lease_seconds}, \`resync\` {reason, revision} (reload:
the resume point was malformed, another workspace's, in the future or too far behind, or the stream could not keep
up), \`closed\` {reason: access | shutdown}. A comment every 15 s keeps it open. Resume with \`Last-Event-ID\`.`;

export const eventsRoute = controlRoute(
  {
    method: "get",
    path: "/api/workspaces/{id}/events",
    operationId: "streamWorkspaceEvents",
    tags: ["live"],
    description: EVENTS_DESCRIPTION,
    who: "member",
    params: IdParam,
    query: EventsQuery,
    output: {
      raw: {
        200: { description: "The event stream", content: { "text/event-stream": z.string() } },
      },
    },
    problems: { 503: "This replica is shutting down: reconnect" },
  },
  async ({ ctx, c, params, query }) => {
    const stream = await ctx.live.events.open({
      workspaceId: params.id,
      lastEventId: c.req.header("last-event-id"),
      since: query.since,
      checkKey: `${params.id}\n${c.req.header("authorization") ?? c.req.header("cookie") ?? ""}`,
      check: () => authorizeAgain(ctx, c),
      greeting: [ctx.live.presenceFrame(params.id)],
    });
    return new Response(stream.body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        // nginx (the chart's ingress) passes each event on at once instead of buffering the answer.
        "x-accel-buffering": "no",
      },
    });
  },
);

export const setPresenceRoute = controlRoute(
  {
    method: "post",
    path: "/api/workspaces/{id}/presence",
    operationId: "setPresence",
    tags: ["live"],
    description: "The caller has the workspace open (a view, a selection); lasts lease_seconds unless renewed",
    who: "member",
    params: IdParam,
    body: PresenceInput,
    output: { schema: PresenceList, description: "Who has the workspace open" },
  },
  ({ ctx, params, body }) => {
    const p = ctx.principal;
    return ctx.live.setPresence(params.id, { id: p.userId, name: p.name || p.username }, body);
  },
);

export const getPresenceRoute = controlRoute(
  {
    method: "get",
    path: "/api/workspaces/{id}/presence",
    operationId: "getPresence",
    tags: ["live"],
    who: "member",
    params: IdParam,
    output: { schema: PresenceList, description: "Who has the workspace open" },
  },
  ({ ctx, params }) => ctx.live.presence(params.id),
);

export const liveRoutes = [eventsRoute, setPresenceRoute, getPresenceRoute];
