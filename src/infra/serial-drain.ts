/**
 * Items queued and written in batches, one write at a time: a drain under way is followed by one for what was
 * queued meanwhile, and every caller of `drain()` waits for the same one. `write` handles its own failures (a
 * rejection would end the drain with items still queued).
 */
export class SerialDrain<T> {
  private pending: T[] = [];
  private draining: Promise<void> | null = null;

  constructor(private readonly write: (batch: T[]) => Promise<void>) {}

  push(item: T): void {
    this.pending.push(item);
  }

  drain(): Promise<void> {
    // Reset in a callback, which runs after the assignment even when nothing was pending.
    this.draining ??= this.writePending().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async writePending(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      await this.write(batch);
    }
  }
}
