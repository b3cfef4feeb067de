/**
 * An array kept in order by binary insertion, so one change costs a search and a splice
 * instead of a full sort. Elements are compared by `compare`; identity decides removal.
 */
export class SortedList<T> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get length(): number {
    return this.items.length;
  }

  /** The backing array; callers must not mutate it. */
  get view(): readonly T[] {
    return this.items;
  }

  insert(item: T): void {
    this.items.splice(this.lowerBound(item), 0, item);
  }

  /** Removes `item`, which must still compare the way it did when inserted. */
  remove(item: T): boolean {
    let index = this.lowerBound(item);
    for (; index < this.items.length && this.compare(this.items[index] as T, item) === 0; index++) {
      if (this.items[index] === item) {
        this.items.splice(index, 1);
        return true;
      }
    }
    // Fallback when the sort key changed in place: a linear search.
    const fallback = this.items.indexOf(item);
    if (fallback === -1) return false;
    this.items.splice(fallback, 1);
    return true;
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Replaces the content with a full sort (for complete listings). */
  reset(items: Iterable<T>): void {
    this.items.length = 0;
    for (const item of items) this.items.push(item);
    this.items.sort(this.compare);
  }

  private lowerBound(item: T): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(this.items[middle] as T, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
