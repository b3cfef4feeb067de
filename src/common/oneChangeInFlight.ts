/**
 * Announces a document's change only once the one before it was applied. VS Code cancels a virtual document's
 * pending update when the next change is announced, and it diffs the whole text before applying one: a large
 * document announced faster than it can be diffed would never show a new line. So while an announcement is in
 * flight, later ones for the same key only mark it as waiting, and the newest text goes out once the editor says it
 * applied the last (`applied`). An announcement that changes nothing is never confirmed: after `giveUpMs` the key is
 * freed anyway, and each give-up in a row doubles the wait (up to 8×), so a text too large to diff in time still gets
 * its turn instead of being cancelled again.
 */
export class OneChangeInFlight<K> {
  private readonly inFlight = new Map<K, NodeJS.Timeout>();
  private readonly waiting = new Set<K>();
  private readonly missesOf = new Map<K, number>();

  constructor(
    private readonly announce: (key: K) => void,
    private readonly giveUpMs: number,
  ) {}

  /** The text at KEY changed: announce it now, or once the announcement in flight is applied. */
  request(key: K): void {
    if (this.inFlight.has(key)) {
      this.waiting.add(key);
      return;
    }
    this.send(key);
  }

  /** The editor applied (or read afresh) the text at KEY: the next waiting change may go. */
  applied(key: K): void {
    this.missesOf.delete(key);
    this.release(key);
  }

  /** KEY's document is gone: nothing more goes out for it. */
  forget(key: K): void {
    clearTimeout(this.inFlight.get(key));
    this.inFlight.delete(key);
    this.waiting.delete(key);
    this.missesOf.delete(key);
  }

  dispose(): void {
    for (const timer of this.inFlight.values()) clearTimeout(timer);
    this.inFlight.clear();
    this.waiting.clear();
    this.missesOf.clear();
  }

  private send(key: K): void {
    this.waiting.delete(key);
    const misses = this.missesOf.get(key) ?? 0;
    const timer = setTimeout(() => {
      this.missesOf.set(key, Math.min(misses + 1, 3));
      this.release(key);
    }, this.giveUpMs * 2 ** misses);
    this.inFlight.set(key, timer);
    this.announce(key);
  }

  private release(key: K): void {
    const timer = this.inFlight.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.inFlight.delete(key);
    if (this.waiting.has(key)) this.send(key);
  }
}
