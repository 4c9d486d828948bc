/**
 * A process's memory of drawn pictures: least recently used first, bounded by bytes as well as by count. Every
 * instance is listed, so that clearRasterCache() forgets them all (a bench measures a first drawing with it).
 */
export class PictureMemory<V> {
  static readonly all = new Set<PictureMemory<unknown>>();
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxEntries: number;

  constructor(maxBytes: number, maxEntries: number) {
    this.maxBytes = maxBytes;
    this.maxEntries = maxEntries;
    PictureMemory.all.add(this as PictureMemory<unknown>);
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (of about `bytes` bytes) unless it alone would take over a quarter of the memory. */
  set(key: string, value: V, bytes: number): void {
    if (bytes > this.maxBytes / 4 || this.entries.has(key)) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
