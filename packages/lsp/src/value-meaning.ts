/**
 * What a trigger's value means, for hover: a `cron`/`schedule` in words with its next runs in the
 * trigger's `timezone` (UTC when absent), and a monitor's `interval`/`expect_event_within` as a
 * duration. The schedule is read by the validator's reader (the dialect `cron-syntax` checks);
 * `cronstrue` words it and `croner` finds the runs (docs/decisions.md, "(#37) The cron dialect").
 * Browser-safe: no Node built-ins.
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import {
  findEntry,
  isCronProblem,
  isTimeZone,
  readCron,
  resolveAlias,
  type ValueNode,
} from '@svc-manifest/validator/library';
import type { PathSegment } from './schema-model.js';

const RUNS = 3;

/** Markdown for a schedule: its meaning in words and the next runs after `now` in `timezone`. */
export function describeSchedule(expression: string, timezone: unknown, now: Date): string {
  const read = readCron(expression);
  if (isCronProblem(read)) return `Not a five-field cron schedule: ${read.message}.`;
  let words: string;
  try {
    words = cronstrue.toString(read.fields, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    words = `\`${read.fields}\``;
  }
  const lines = [`**Runs:** ${words}${read.fields === expression.trim() ? '' : ` (\`${read.fields}\`)`}`];
  const zone = typeof timezone === 'string' && timezone !== '' && isTimeZone(timezone) ? timezone : 'UTC';
  const unknownZone = typeof timezone === 'string' && timezone !== '' && zone !== timezone;
  let runs: Date[] = [];
  try {
    runs = new Cron(read.fields, { timezone: zone, paused: true, legacyMode: true }).nextRuns(RUNS, now);
  } catch {
    runs = [];
  }
  if (runs.length === 0) {
    lines.push('No run in the coming years.');
  } else {
    const where = unknownZone ? `UTC (\`${String(timezone)}\` is not a known time zone)` : zone;
    lines.push(`Next ${runs.length} runs, ${where}:`, runs.map((run) => `- ${formatIn(run, zone)}`).join('\n'));
  }
  return lines.join('\n\n');
}

const UNITS: Record<string, [singular: string, seconds: number]> = {
  s: ['second', 1],
  m: ['minute', 60],
  h: ['hour', 3600],
  d: ['day', 86400],
};

/** Markdown for a monitor duration (`5m`), or undefined when it is not one. */
export function describeDuration(key: 'interval' | 'expect_event_within', value: string): string | undefined {
  const match = /^([1-9]\d{0,8})([smhd])$/.exec(value);
  if (!match) return undefined;
  const count = Number(match[1]);
  const [unit, seconds] = UNITS[match[2]!]!;
  const amount = `${count} ${unit}${count === 1 ? '' : 's'}`;
  const total = unit === 'second' ? '' : ` (${(count * seconds).toLocaleString('en-US')} seconds)`;
  return key === 'interval' ? `**Polls** every ${amount}${total}.` : `**Expects an event within** ${amount}${total}.`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `Mon 2026-11-30 09:00` in `zone`, with the UTC time when the zone is not UTC. */
export function formatIn(date: Date, zone: string): string {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const local = `${part.weekday} ${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
  if (zone === 'UTC') return local;
  return `${local} (${date.toISOString().slice(11, 16)} UTC)`;
}

/** The meaning of the scalar at `segments` when it is a trigger's schedule or duration, else undefined. */
export function triggerValueMeaning(
  root: ValueNode,
  segments: readonly PathSegment[],
  value: unknown,
  now: Date = new Date(),
): string | undefined {
  if (
    segments.length !== 3 ||
    segments[0] !== 'triggers' ||
    typeof segments[1] !== 'number' ||
    typeof value !== 'string'
  )
    return undefined;
  const key = segments[2];
  if (key === 'interval' || key === 'expect_event_within') return describeDuration(key, value);
  if (key !== 'cron' && key !== 'schedule') return undefined;
  const triggers = resolveAlias(root.kind === 'map' ? findEntry(root, 'triggers')?.value : undefined);
  const trigger = resolveAlias(triggers?.kind === 'seq' ? triggers.items[segments[1]] : undefined);
  const timezone = resolveAlias(trigger?.kind === 'map' ? findEntry(trigger, 'timezone')?.value : undefined);
  return describeSchedule(value, timezone?.kind === 'scalar' ? timezone.value : undefined, now);
}
