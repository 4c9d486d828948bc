const encoder = new TextEncoder();

/** One Server-Sent Events frame, encoded once and shared by every stream it goes to. */
export function sseFrame(frame: { id?: string; event: string; data: unknown }): Uint8Array {
  // JSON text has no raw line breaks, so one data line carries it whole.
  const id = frame.id === undefined ? "" : `id: ${frame.id}\n`;
  return encoder.encode(`${id}event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`);
}

/** A comment line: keeps proxies and the browser from closing an idle stream, read by nobody. */
export const HEARTBEAT = encoder.encode(": keep-alive\n\n");

/** How long the browser waits before reconnecting after the stream ends (EventSource's `retry`). */
export const retryFrame = (ms: number) => encoder.encode(`retry: ${ms}\n\n`);

/** The event id of a workspace's revision: the workspace is part of it, so a resume cannot cross workspaces. */
export const eventId = (workspaceId: string, revision: number) => `${workspaceId}:${revision}`;
