// Loaded before the unit tests by the `unit-later` stage (npm run test:unit:later): the wall clock reads
// BERTH_LATER_DAYS (default 400) days ahead. Recorded answers carry absolute times (a rate limit's reset, a listing's
// `Created`), and a test that compares one with the real clock passes on the day it was written and fails some later
// day in CI. Running the same tests a year on catches that on the day it is written. `Date` is wrapped, not
// subclassed, so `Date()` called without `new` still returns a string.
const offsetMs = Number(process.env.BERTH_LATER_DAYS ?? 400) * 86_400_000;
const RealDate = Date;
const laterNow = (): number => RealDate.now() + offsetMs;

globalThis.Date = new Proxy(RealDate, {
  construct: (target, args: unknown[], newTarget): object =>
    Reflect.construct(target, args.length === 0 ? [laterNow()] : args, newTarget) as Date,
  apply: () => new RealDate(laterNow()).toString(),
  get: (target, key, receiver): unknown => (key === 'now' ? laterNow : Reflect.get(target, key, receiver)),
});

if (new Date().getTime() - RealDate.now() < offsetMs - 60_000 || Date.now() - RealDate.now() < offsetMs - 60_000) {
  throw new Error('the later clock did not take: Date still reads today');
}
