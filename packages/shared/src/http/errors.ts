import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { AppError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { problemResponse } from "./problem.ts";
import { REQUEST_ID_HEADER, withHeader } from "./request-id.ts";

/** The request id requestId() set, when it ran. */
const idOf = (c: Context): string | undefined => (c.var as { requestId?: string }).requestId;

const withRequestId = (res: Response, id: string | undefined): Response =>
  id ? withHeader(res, REQUEST_ID_HEADER, id) : res;

/** app.onError: the problem response, with a logged 500 carrying the request id. */
export function onErrorProblem(log: Logger): ErrorHandler {
  return (err, c) => {
    const id = idOf(c);
    return withRequestId(problemResponse(err, id ? log.child({ request_id: id }) : log), id);
  };
}

/** app.notFound: a 404 problem naming the method and path. */
export function notFoundProblem(): NotFoundHandler {
  return (c) =>
    withRequestId(problemResponse(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`)), idOf(c));
}
