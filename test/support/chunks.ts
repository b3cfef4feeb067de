/** Network chunks, as tests cut a stream's bytes into them. */

/** Splits bytes at the given cut points (positions within the buffer, any order, duplicates allowed). */
export function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  if (start < bytes.length) chunks.push(bytes.subarray(start));
  return chunks;
}
