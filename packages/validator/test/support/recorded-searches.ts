/**
 * Records each search of a text for `marker` (the position it starts from), so a test can assert
 * that an update's search read only the edited lines: the carried searches look in a copy of
 * those lines, never in the whole text, so a search of the text itself means a whole-text search.
 */
export function recordSearches(source: { indexOf(searched: string, position?: number): number }, marker: string) {
  const searchedFrom: (number | undefined)[] = [];
  const indexOf = source.indexOf.bind(source);
  source.indexOf = (searched: string, position?: number) => {
    if (searched.includes(marker)) searchedFrom.push(position);
    return indexOf(searched, position);
  };
  return searchedFrom;
}
