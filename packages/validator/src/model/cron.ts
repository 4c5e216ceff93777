/**
 * The cron dialect a trigger's `cron` (or `schedule`) is read in: the five-field standard
 * (minute, hour, day of month, month, day of week) with lists, ranges, `*`, steps (`*\/n`,
 * `a-b/n`), month and weekday names, and the macros `@yearly` … `@hourly`. Quartz extensions
 * (`L`, `W`, `#`, `?`, a seconds or years field) and `@reboot` are outside it; see
 * docs/decisions.md, "(#37) The cron dialect". Pure and browser-safe: the language server turns
 * a schedule read here into words and run times.
 */

export interface CronField {
  name: 'minute' | 'hour' | 'day of month' | 'month' | 'day of week';
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 0 and 7 are both Sunday, as in Vixie cron.
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

/** The macros, each with the five fields it stands for. */
export const CRON_MACROS: ReadonlyMap<string, string> = new Map([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

/** A schedule read in the dialect: its five fields (a macro expanded), each with the values it allows. */
export interface CronSchedule {
  fields: string;
  /** Per field, the allowed values in ascending order (Sunday as 0 only). */
  values: readonly (readonly number[])[];
}

/** What is wrong with an expression, and the characters (offsets into it) that are. */
export interface CronProblem {
  message: string;
  start: number;
  end: number;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * What {@link readCron} read, by expression: a reading depends on the text alone, and a tree of
 * manifests repeats a few schedules (`0 * * * *`) many times. Bounded, as expressions come from
 * manifests: past the bound an expression is read afresh each time.
 */
const readings = new Map<string, CronSchedule | CronProblem>();
const MAX_READINGS = 1024;
/** A schedule is a short line; a longer text is read afresh, so the memo holds no more than 1,024 short strings. */
const MAX_REMEMBERED_LENGTH = 256;

/** Reads `text` as a schedule of the dialect, or says what is wrong with it and where. A short text's reading is shared, frozen. */
export function readCron(text: string): CronSchedule | CronProblem {
  let read = readings.get(text);
  if (read === undefined) {
    read = readCronAfresh(text);
    if (readings.size < MAX_READINGS && text.length <= MAX_REMEMBERED_LENGTH) readings.set(text, frozen(read));
  }
  return read;
}

/** A reading made unchangeable, as every caller of {@link readCron} shares it. */
function frozen(read: CronSchedule | CronProblem): CronSchedule | CronProblem {
  if ('values' in read) {
    for (const field of read.values) Object.freeze(field);
    Object.freeze(read.values);
  }
  return Object.freeze(read);
}

function readCronAfresh(text: string): CronSchedule | CronProblem {
  const trimmedStart = text.length - text.trimStart().length;
  const body = text.trim();
  if (body.startsWith('@')) {
    const expanded = CRON_MACROS.get(body.toLowerCase());
    const at = { start: trimmedStart, end: trimmedStart + body.length };
    if (body.toLowerCase() === '@reboot')
      return { message: "'@reboot' is not a schedule: a trigger runs at times, not at start-up", ...at };
    if (expanded === undefined)
      return { message: `unknown macro '${body}'; the macros are ${[...CRON_MACROS.keys()].join(', ')}`, ...at };
    return readFields(expanded, 0);
  }
  return readFields(text, 0);
}

function readFields(text: string, base: number): CronSchedule | CronProblem {
  const tokens: { text: string; start: number }[] = [];
  for (const match of text.matchAll(/[^ \t]+/g)) tokens.push({ text: match[0], start: base + match.index });
  if (tokens.length !== 5) {
    const start = tokens[0]?.start ?? base;
    const end =
      tokens.length > 0
        ? tokens[tokens.length - 1]!.start + tokens[tokens.length - 1]!.text.length
        : base + text.length;
    const seconds = tokens.length === 6 ? ' (a seconds field is not part of the five-field standard)' : '';
    return {
      message: `expected 5 fields (minute hour day-of-month month day-of-week), found ${tokens.length}${seconds}`,
      start,
      end,
    };
  }
  const values: number[][] = [];
  for (let i = 0; i < 5; i++) {
    const read = readField(tokens[i]!.text, tokens[i]!.start, CRON_FIELDS[i]!);
    if (!Array.isArray(read)) return read;
    values.push(read);
  }
  const [, , days, months, weekdays] = tokens;
  // A day of month no listed month has (`31 2`) never runs, unless a weekday is also given (then either matches).
  if (
    days!.text !== '*' &&
    weekdays!.text === '*' &&
    values[2]!.every((day) => values[3]!.every((month) => day > DAYS_IN_MONTH[month - 1]!))
  ) {
    return {
      message: `never runs: no ${CRON_FIELDS[3]!.name} it allows has day ${values[2]![0]}`,
      start: days!.start,
      end: months!.start + months!.text.length,
    };
  }
  return { fields: tokens.map((token) => token.text).join(' '), values };
}

function readField(text: string, start: number, field: CronField): number[] | CronProblem {
  const allowed = new Set<number>();
  let offset = start;
  for (const part of text.split(',')) {
    const at = { start: offset, end: offset + part.length };
    offset += part.length + 1;
    if (part === '') return { message: `empty list item in the ${field.name} field`, ...at };
    const slash = part.indexOf('/');
    const range = slash < 0 ? part : part.slice(0, slash);
    let step = 1;
    if (slash >= 0) {
      const stepText = part.slice(slash + 1);
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0)
        return { message: `step '${stepText}' in the ${field.name} field is not a positive number`, ...at };
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*') {
      [low, high] = [field.min, field.max];
    } else {
      const dash = range.indexOf('-', 1);
      const first = valueOf(dash < 0 ? range : range.slice(0, dash), field);
      if (typeof first !== 'number') return { ...first, ...at };
      if (dash < 0 && slash >= 0) {
        return {
          message: `'${part}': a step needs a range or '*' (write '${range}-${field.max === 7 ? 6 : field.max}/${step}' or '*/${step}')`,
          ...at,
        };
      }
      const last = dash < 0 ? first : valueOf(range.slice(dash + 1), field);
      if (typeof last !== 'number') return { ...last, ...at };
      if (last < first) return { message: `range '${range}' in the ${field.name} field runs backwards`, ...at };
      [low, high] = [first, last];
    }
    for (let value = low; value <= high; value += step) allowed.add(field.max === 7 && value === 7 ? 0 : value);
  }
  return [...allowed].sort((a, b) => a - b);
}

function valueOf(text: string, field: CronField): number | { message: string } {
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < field.min || value > field.max)
      return { message: `${field.name} ${text} is out of range ${field.min}-${field.max}` };
    return value;
  }
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index >= 0) return index + (field.min === 1 ? 1 : 0);
  if (/^[LW#?]|[LW#?]$/i.test(text) || text.includes('#'))
    return { message: `'${text}' in the ${field.name} field is a Quartz extension, not five-field cron` };
  const names = field.names ? ` or ${field.names[0]}-${field.names[field.names.length - 1]}` : '';
  return { message: `'${text}' is not a ${field.name} (${field.min}-${field.max}${names})` };
}

/** Whether a reading is a problem. */
export function isCronProblem(read: CronSchedule | CronProblem): read is CronProblem {
  return 'message' in read;
}
