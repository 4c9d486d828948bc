import { HEARTBEAT, retryFrame } from "./sse.ts";

/** Bytes a stream may have waiting for its reader before it is cut off (a slow consumer never grows memory more). */
export const STREAM_BUFFER_BYTES = 256 * 1024;
export const HEARTBEAT_MS = 15_000;
/** The browser's reconnect delay after the stream ends. */
export const RETRY_MS = 2_000;

export type StreamOptions = {
  bufferBytes?: number;
  heartbeatMs?: number;
  /** Called once when the stream ends, whoever ends it (the reader going away included). */
  onClose(): void;
};

/** One open text/event-stream answer: frames are queued for its reader, bounded. */
export type SseStream = {
  body: ReadableStream<Uint8Array>;
  /** Queues a frame; false when the stream is closed or its queue is over the bound (nothing queued then). */
  send(frame: Uint8Array): boolean;
  /** Queues the last frame (if any, even over the bound) and ends the stream. */
  close(last?: Uint8Array): void;
  isOpen(): boolean;
  /** Bytes queued and not yet taken by the reader. */
  queued(): number;
};

export function openSseStream(opts: StreamOptions): SseStream {
  const bound = opts.bufferBytes ?? STREAM_BUFFER_BYTES;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        c.enqueue(retryFrame(RETRY_MS));
      },
      cancel() {
        end();
      },
    },
    // The queue counts bytes: desiredSize is the bound minus what waits for the socket.
    new ByteLengthQueuingStrategy({ highWaterMark: bound }),
  );
  const queued = () => bound - (controller.desiredSize ?? bound);
  const heartbeat = setInterval(() => {
    if (queued() === 0) send(HEARTBEAT);
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  const end = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    opts.onClose();
  };
  const send = (frame: Uint8Array) => {
    if (!open) return false;
    // A frame larger than the bound still goes to an empty queue; otherwise the bound holds.
    if (queued() > 0 && queued() + frame.byteLength > bound) return false;
    controller.enqueue(frame);
    return true;
  };
  return {
    body,
    send,
    close(last) {
      if (!open) return;
      if (last) controller.enqueue(last);
      controller.close();
      end();
    },
    isOpen: () => open,
    queued,
  };
}
