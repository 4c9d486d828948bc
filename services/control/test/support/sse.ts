/** One Server-Sent Event as a browser's EventSource would dispatch it (comments counted apart). */
export type SseEvent = { id?: string; event: string; data: unknown };

/** Reads an event-stream answer frame by frame. */
export function sseReader(res: Response) {
  if (!res.body) throw new Error(`no body (${res.status})`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  let comments = 0;
  const parse = (block: string): SseEvent | null => {
    const out: { id?: string; event: string; data: string[] } = { event: "message", data: [] };
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) comments++;
      else if (line.startsWith("id: ")) out.id = line.slice(4);
      else if (line.startsWith("event: ")) out.event = line.slice(7);
      else if (line.startsWith("data: ")) out.data.push(line.slice(6));
    }
    return out.data.length > 0 ? { ...out, data: JSON.parse(out.data.join("\n")) } : null;
  };
  const api = {
    /** The next event, or null once the stream has ended. */
    async next(): Promise<SseEvent | null> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parse(block);
          if (event) return event;
          continue;
        }
        if (ended) return null;
        const { done, value } = await reader.read();
        if (done) ended = true;
        else buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next event of this type, skipping others (presence while waiting for changes, say). */
    async nextOf(type: string): Promise<SseEvent | null> {
      for (;;) {
        const event = await api.next();
        if (!event || event.event === type) return event;
      }
    },
    /** Events until the stream ends. */
    async rest(): Promise<SseEvent[]> {
      const out: SseEvent[] = [];
      for (let e = await api.next(); e; e = await api.next()) out.push(e);
      return out;
    },
    comments: () => comments,
    cancel: () => reader.cancel().catch(() => {}),
  };
  return api;
}
