/**
 * Hover on a trigger's schedule and durations: words and the next three runs in the trigger's
 * time zone (unit, at a fixed time), the same through the built server over stdio, and croner
 * runs every schedule the validator's reader accepts in the fixtures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cron } from 'croner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCronProblem, readCron } from '@svc-manifest/validator';
import { hover } from '../src/features/hover.js';
import { describeDuration, describeSchedule } from '../src/value-meaning.js';
import { startStdioClient, type StdioClient } from './built-server.js';
import { at, positionIn, rangeOf, tomlUri } from './helpers.js';

const NOW = new Date('2026-11-28T14:00:00Z'); // a Saturday

describe('describeSchedule', () => {
  it('says a schedule in words with its next three runs in the time zone', () => {
    expect(describeSchedule('30 8 * * MON-FRI', 'Asia/Kolkata', NOW)).toBe(
      [
        '**Runs:** At 08:30, Monday through Friday',
        'Next 3 runs, Asia/Kolkata:',
        '- Mon 2026-11-30 08:30 (03:00 UTC)\n- Tue 2026-12-01 08:30 (03:00 UTC)\n- Wed 2026-12-02 08:30 (03:00 UTC)',
      ].join('\n\n'),
    );
  });

  it('runs in UTC without a time zone, and expands a macro', () => {
    expect(describeSchedule('@daily', undefined, NOW)).toBe(
      '**Runs:** At 00:00 (`0 0 * * *`)\n\nNext 3 runs, UTC:\n\n- Sun 2026-11-29 00:00\n- Mon 2026-11-30 00:00\n- Tue 2026-12-01 00:00',
    );
  });

  it('keeps to UTC and says so when the zone is unknown; follows daylight saving time', () => {
    expect(describeSchedule('0 12 * * *', 'Europe/Berln', NOW)).toContain(
      'Next 3 runs, UTC (`Europe/Berln` is not a known time zone):\n\n- Sun 2026-11-29 12:00\n',
    );
    const spring = describeSchedule('0 3 * * *', 'Europe/Berlin', new Date('2027-03-27T12:00:00Z'));
    expect(spring).toContain('- Sun 2027-03-28 03:00 (01:00 UTC)\n- Mon 2027-03-29 03:00 (01:00 UTC)');
    expect(describeSchedule('0 9 * * *', 'Europe/Kyiv', NOW)).toContain('- Sun 2026-11-29 09:00 (07:00 UTC)');
  });

  it('says what is wrong with a schedule outside the dialect', () => {
    expect(describeSchedule('0 25 * * *', undefined, NOW)).toBe(
      'Not a five-field cron schedule: hour 25 is out of range 0-23.',
    );
  });
});

describe('describeDuration', () => {
  it.each([
    ['interval', '5m', '**Polls** every 5 minutes (300 seconds).'],
    ['interval', '1s', '**Polls** every 1 second.'],
    ['expect_event_within', '2d', '**Expects an event within** 2 days (172,800 seconds).'],
  ] as const)('%s %s', (key, value, text) => {
    expect(describeDuration(key, value)).toBe(text);
  });
  it.each(['0m', '5', '5w', '05m', ''])('is silent on %j', (value) => {
    expect(describeDuration('interval', value)).toBeUndefined();
  });
});

describe('hover on a trigger value', () => {
  const TOML =
    'svc_version = 1\n\n[[triggers]]\nslug = "m"\ntype = "monitor"\nrun = "check"\nmode = "poll"\ninterval = "1‸5m"\nprompt = "p"\n';
  it('adds the meaning to the key description', () => {
    const fixture = at(TOML, tomlUri);
    const got = hover(fixture.state, { position: fixture.position });
    const value = (got!.contents as { value: string }).value;
    expect(value).toMatch(/^\*\*interval\*\*\n\n[\s\S]+\n\n---\n\n\*\*Polls\*\* every 15 minutes \(900 seconds\)\.$/);
    expect(got!.range).toEqual(rangeOf(TOML.replace('‸', ''), '"15m"'));
  });
});

describe('croner and the reader', () => {
  it('croner runs every schedule the reader accepts in the fixtures', () => {
    const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');
    const schedules = new Set<string>(['*/20 0-6/3 1,15 jan,Jul 0,7', '0 12 29 feb *', '0 0 * * 7']);
    for (const rule of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      for (const verdict of ['valid', 'invalid']) {
        let names: string[] = [];
        try {
          names = readdirSync(join(root, rule.name, verdict));
        } catch {
          continue;
        }
        for (const name of names.filter((file) => /\.(ya?ml|toml)$/.test(file))) {
          for (const match of readFileSync(join(root, rule.name, verdict, name), 'utf8').matchAll(
            /(?:cron|schedule)\s*[:=]\s*["']?([^"'\n]+)/g,
          ))
            schedules.add(match[1]!.trim());
        }
      }
    }
    let accepted = 0;
    for (const schedule of schedules) {
      const read = readCron(schedule);
      if (isCronProblem(read)) continue;
      accepted++;
      expect(new Cron(read.fields, { paused: true, legacyMode: true }).nextRuns(1, NOW), schedule).toHaveLength(1);
    }
    expect(accepted).toBeGreaterThan(8);
  });
});

describe('over stdio', () => {
  let client: StdioClient;
  beforeAll(async () => {
    client = await startStdioClient();
  }, 60_000);
  afterAll(() => client.close());

  it('answers hover on cron with words and three runs, and publishes cron and time zone warnings', async () => {
    const uri = 'file:///work/hover-cron/svc.yaml';
    const text = [
      'svc_version: 2',
      'default_agent: main',
      'agents:',
      '  main: {}',
      'triggers:',
      '  - slug: standup',
      '    type: cron',
      '    cron: "0 9 * * *"',
      '    timezone: Asia/Kolkata',
      '    prompt: p',
      '  - slug: bad',
      '    type: cron',
      '    cron: "0 9 * * * *"',
      '    timezone: Europe/Berln',
      '    prompt: p',
      '',
    ].join('\n');
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    const got = await client.connection.sendRequest<{ contents: { value: string }; range: unknown }>(
      'textDocument/hover',
      {
        textDocument: { uri },
        position: positionIn(text, '0 9 * * *"', 0, 2),
      },
    );
    expect(got.range).toEqual(rangeOf(text, '"0 9 * * *"'));
    const runs =
      /\*\*Runs:\*\* At 09:00\n\nNext 3 runs, Asia\/Kolkata:\n\n((?:- \w{3} \d{4}-\d\d-\d\d 09:00 \(03:30 UTC\)\n?){3})$/.exec(
        got.contents.value,
      );
    expect(runs, got.contents.value).not.toBeNull();
    const published = await new Promise<{ code: string; range: unknown }[]>((resolve) => {
      const poll = () => {
        const last = client.notifications
          .filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri)
          .pop();
        if (last) resolve(last.params.diagnostics);
        else setTimeout(poll, 20);
      };
      poll();
    });
    expect(published.map((d) => [d.code, d.range])).toEqual([
      ['cron-syntax', rangeOf(text, '0 9 * * * *')],
      ['unknown-timezone', rangeOf(text, 'Europe/Berln')],
    ]);
  });
});
