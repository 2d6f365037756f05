/**
 * A `timestamp(3)` read from the wire keeps the ISO text it was read as, so that a list of rows goes from the
 * wire to the ISO text of its answer once, not through `Date` back to text (a dashboard serialises 500 timestamps;
 * issue #32). The Date stays the row's value for the code that compares or computes with it. The text is only used
 * while the Date still holds the instant it was read as (no code sets a row's Date, but one that did must not be
 * answered with the old text).
 */
const ISO = Symbol('wireIso');
const AT = Symbol('wireTime');

type WireDate = Date & { [ISO]?: string; [AT]?: number };

export function withWireIso(date: Date, iso: string): Date {
  (date as WireDate)[ISO] = iso;
  (date as WireDate)[AT] = date.getTime();
  return date;
}

/** The ISO text a wire timestamp was read as, or undefined (another Date, or one changed since). */
export function wireIso(date: Date): string | undefined {
  const iso = (date as WireDate)[ISO];
  return iso !== undefined && (date as WireDate)[AT] === date.getTime() ? iso : undefined;
}
