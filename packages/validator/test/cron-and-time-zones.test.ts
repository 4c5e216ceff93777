/**
 * The cron dialect (`model/cron.ts`) and the time zone names (`model/time-zones.ts`) that
 * `cron-syntax` and `unknown-timezone` check; the rules' output on files is in fixtures/.
 */
import { describe, expect, it } from 'vitest';
import { isCronProblem, isTimeZone, readCron, suggestTimeZone, validateManifest } from '@svc-manifest/validator';

describe('readCron', () => {
  it.each([
    ['30 8 * * MON-FRI', [[30], [8], 'all', 'all', [1, 2, 3, 4, 5]]],
    ['*/20 0-6/3 1,15 jan,Jul 0,7', [[0, 20, 40], [0, 3, 6], [1, 15], [1, 7], [0]]],
    ['@weekly', [[0], [0], 'all', 'all', [0]]],
    ['  @HOURLY ', [[0], 'all', 'all', 'all', 'all']],
    ['0\t12 29 2 *', [[0], [12], [29], [2], 'all']],
  ])('reads %j', (text, expected) => {
    const read = readCron(text);
    if (isCronProblem(read)) throw new Error(read.message);
    const all = [60, 24, 31, 12, 7];
    expect(read.values.map((values, i) => (values.length === all[i] ? 'all' : values))).toEqual(expected);
  });

  it.each([
    ['0 24 * * *', 2, 4, 'hour 24 is out of range 0-23'],
    ['0 0 * * * *', 0, 11, 'found 6'],
    ['0 0 ? * 1', 4, 5, 'Quartz'],
    ['0 0 1W * *', 4, 6, 'Quartz'],
    ['0 0 * * 5#2', 8, 11, 'Quartz'],
    ['10/5 * * * *', 0, 4, 'a step needs a range'],
    ['*/0 * * * *', 0, 3, "step '0'"],
    ['0 0 1,,2 * *', 6, 6, 'empty list item'],
    ['0 0 31 4,6 *', 4, 10, 'never runs'],
    ['@reboot', 0, 7, '@reboot'],
    ['@often', 0, 6, 'unknown macro'],
    ['', 0, 0, 'found 0'],
  ])('refuses %j at %i-%i', (text, start, end, message) => {
    const read = readCron(text);
    expect(isCronProblem(read) && { start: read.start, end: read.end }).toEqual({ start, end });
    expect(isCronProblem(read) && read.message).toContain(message);
  });

  it('reads a long hostile string in one pass', () => {
    expect(isCronProblem(readCron('1,'.repeat(200_000) + ' * * * *'))).toBe(true);
    expect(isCronProblem(readCron('9'.repeat(100_000) + ' * * * *'))).toBe(true);
  });

  it("shares a short expression's reading, frozen, and keeps no long text", () => {
    const schedule = readCron('*/15 9-17 * * 1-5');
    expect(readCron('*/15 9-17 * * 1-5')).toBe(schedule);
    expect(Object.isFrozen(schedule)).toBe(true);
    expect(!isCronProblem(schedule) && schedule.values.every((field) => Object.isFrozen(field))).toBe(true);
    expect(!isCronProblem(schedule) && Object.isFrozen(schedule.values)).toBe(true);
    const long = `0 ${'1,'.repeat(200)}2 * * *`;
    expect(readCron(long)).not.toBe(readCron(long));
    expect(readCron(long)).toEqual(readCron(long));
  });
});

describe('time zones', () => {
  it.each([
    'UTC',
    'Etc/UTC',
    'Asia/Kolkata',
    'Asia/Calcutta',
    'Europe/Kyiv',
    'Europe/Kiev',
    'US/Eastern',
    'Europe/Berlin',
  ])('accepts %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['', ' ', 'Europe/Berln', 'CEST', 'Mars/Olympus_Mons', 'x'.repeat(100_000)])('refuses %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });

  it.each([
    ['Europe/Berln', 'Europe/Berlin'],
    ['europe/berln', 'Europe/Berlin'],
    ['Asia/Kolkatta', 'Asia/Kolkata'],
    ['Europe/Kyyiv', 'Europe/Kyiv'],
    ['America/Los_Angelos', 'America/Los_Angeles'],
    ['Mars/Olympus_Mons', undefined],
  ])('suggests for %s: %s', (zone, suggestion) => {
    expect(suggestTimeZone(zone)).toBe(suggestion);
  });

  it('offers the suggestion as a fix of the written name', () => {
    const text =
      'svc_version = 1\n\n[[triggers]]\nslug = "t"\ntype = "cron"\ncron = "0 9 * * *"\ntimezone = "Europe/Berln"\nprompt = "p"\n';
    const [diagnostic] = validateManifest(text, { format: 'toml' }).diagnostics;
    expect(diagnostic?.code).toBe('unknown-timezone');
    const start = text.indexOf('"Europe/Berln"');
    expect([diagnostic?.range.start.offset, diagnostic?.range.end.offset]).toEqual([start, start + 14]);
    expect(
      diagnostic?.fixes?.[0]?.edits.map((edit) => [edit.range.start.offset, edit.range.end.offset, edit.newText]),
    ).toEqual([[start + 1, start + 13, 'Europe/Berlin']]);
  });
});
