/**
 * Time zone names, as the runtime's date support (`Intl.DateTimeFormat`) knows them: a name is
 * valid when the runtime accepts it as a `timeZone`, canonical or a link (`UTC`, `Asia/Kolkata`,
 * `Europe/Kyiv`, `US/Eastern`), whatever `Intl.supportedValuesOf` lists. Browser-safe.
 */
import { closestMatch } from '../suggest.js';

// Links the runtime accepts but its canonical list may name otherwise (ICU lists `Asia/Calcutta`, `Europe/Kiev`).
const WELL_KNOWN = [
  'UTC',
  'Etc/UTC',
  'GMT',
  'Asia/Kolkata',
  'Europe/Kyiv',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'America/Nuuk',
  'Pacific/Kanton',
];

const accepted = new Map<string, boolean>();
let candidates: string[] | undefined;

/** Whether the runtime accepts `name` as a time zone (answers are kept per name). */
export function isTimeZone(name: string): boolean {
  let known = accepted.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = name.trim() !== '';
    } catch {
      known = false;
    }
    if (accepted.size > 1000) accepted.clear();
    accepted.set(name, known);
  }
  return known;
}

/** The accepted zone name closest to `name`, when one is close enough to be a typo. */
export function suggestTimeZone(name: string): string | undefined {
  if (!candidates) {
    const listed =
      (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf?.('timeZone') ?? [];
    // The runtime's own list needs no check (constructing a formatter for each of its ~400 zones took 100-200 ms); our links do.
    candidates = [...new Set([...WELL_KNOWN.filter((zone) => isTimeZone(zone)), ...listed])];
  }
  // Compare the city alone too: `Berln` is as far from `Berlin` as `Europe/Berln` is from `Europe/Berlin`, but shorter names allow fewer edits.
  return closestMatch(name, candidates) ?? closestByCity(name, candidates);
}

function closestByCity(name: string, zones: readonly string[]): string | undefined {
  const slash = name.lastIndexOf('/');
  if (slash < 0) return undefined;
  const region = name.slice(0, slash).toLowerCase();
  const sameRegion = zones.filter((zone) => zone.toLowerCase().startsWith(`${region}/`));
  const city = closestMatch(
    name.slice(slash + 1),
    sameRegion.map((zone) => zone.slice(slash + 1)),
  );
  return city === undefined ? undefined : sameRegion.find((zone) => zone.slice(slash + 1) === city);
}
