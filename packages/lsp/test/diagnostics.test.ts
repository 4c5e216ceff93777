import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticScheduler } from '../src/diagnostic-scheduler.js';
import { createState, updateState, type DocumentState } from '../src/document-state.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { doc, rangeOf, tomlUri } from './helpers.js';

const summary = (diagnostics: Diagnostic[]) =>
  diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range }));

describe('diagnostics', () => {
  it('puts each validator diagnostic on the right line and UTF-16 columns (emoji and CJK)', () => {
    const text =
      'svc_version: 2\ndefault_agent: coder\nagents:\n  coder: {}\nproject: { name: "😀 名前の説明", descripton: "絵文字 🎉" }\nruntime: runtime_c\n';
    const got = summary(computeDiagnostics(doc(text)));
    expect(got).toEqual([
      // Columns count UTF-16 code units: 😀 is two, each CJK character one.
      {
        code: 'possible-typo',
        severity: 2,
        range: { start: { line: 4, character: 29 }, end: { line: 4, character: 39 } },
      },
      { code: 'invalid-value', severity: 1, range: rangeOf(text, 'runtime_c') },
    ]);
    expect(rangeOf(text, 'descripton')).toEqual(got[0]!.range);
  });

  it('reports TOML problems in TOML coordinates', () => {
    const text =
      'svc_version = 2\ndefault_agent = "coder"\n\n[agents.coder]\nworkspace = "reed"\n\n[[triggers]]\nslug = "hook"\ntype = "webhook"\nprompt = "x"\n';
    const got = summary(computeDiagnostics(doc(text, tomlUri)));
    expect(got.map((d) => d.code)).toEqual(['invalid-value', 'trigger-webhook-secret']);
    expect(got[0]!.range).toEqual(rangeOf(text, '"reed"'));
    expect(got[1]!.range.start.line).toBe(8);
  });

  it('passes related locations with the document uri', () => {
    const text = 'svc_version: 2\ndefault_agent: bob\nagents:\n  bob: {}\n  bob: {}\n';
    const [duplicate] = computeDiagnostics(doc(text));
    expect(duplicate!.code).toBe('duplicate-key');
    expect(duplicate!.range).toEqual(rangeOf(text, 'bob', 2));
    expect(duplicate!.relatedInformation).toEqual([
      { location: { uri: 'file:///work/svc.yaml', range: rangeOf(text, 'bob', 1) }, message: expect.any(String) },
    ]);
  });

  it('a syntax error in TOML is one located diagnostic', () => {
    const text = 'svc_version = 2\nagents = [\n';
    const got = computeDiagnostics(doc(text, tomlUri));
    expect(got.map((d) => d.code)).toEqual(['toml-syntax']);
    expect(got[0]!.range.start.line).toBe(2);
  });
});

describe('DiagnosticScheduler', () => {
  function harness() {
    const states = new Map<string, DocumentState>();
    const published: { uri: string; version: number; codes: string[] }[] = [];
    const timers: (() => void)[] = [];
    let onCompute: (() => void) | undefined;
    const scheduler = new DiagnosticScheduler({
      delayMs: 10,
      current: (uri) => states.get(uri),
      compute: (state) => {
        // What arrives while a validation runs is handled after it has read its document (the
        // server's loop is one thread); a document an edit took over is never read again.
        const diagnostics = computeDiagnostics(state);
        onCompute?.();
        return diagnostics;
      },
      publish: (uri, version, diagnostics) =>
        published.push({ uri, version, codes: diagnostics.map((d) => String(d.code)) }),
      onError: (error) => {
        throw error;
      },
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => undefined,
    });
    return { states, published, timers, scheduler, setOnCompute: (f: () => void) => (onCompute = f) };
  }

  it('publishes once per quiet period, for the version it validated', async () => {
    const h = harness();
    const uri = 'file:///work/svc.yaml';
    h.states.set(uri, createState(uri, 1, 'svc_version: 2\n'));
    h.scheduler.schedule(uri);
    h.states.set(uri, updateState(h.states.get(uri)!, 2, 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n'));
    h.scheduler.schedule(uri);
    expect(h.published).toEqual([]);
    h.timers.at(-1)!();
    await Promise.resolve();
    expect(h.published).toEqual([{ uri, version: 2, codes: [] }]);
  });

  it('drops a result when the document changed while it was computed', async () => {
    const h = harness();
    const uri = 'file:///work/svc.yaml';
    h.states.set(uri, createState(uri, 1, 'svc_version: 2\n'));
    // An edit arrives while version 1 is being validated.
    h.setOnCompute(() => h.states.set(uri, updateState(h.states.get(uri)!, 2, 'svc_version: 3\n')));
    expect(await h.scheduler.run(uri)).toBe(false);
    expect(h.published).toEqual([]);
    h.setOnCompute(() => undefined);
    expect(await h.scheduler.run(uri)).toBe(true);
    expect(h.published.map((p) => p.version)).toEqual([2]);
  });

  it('publishes nothing for a closed document', async () => {
    const h = harness();
    expect(await h.scheduler.run('file:///work/svc.yaml')).toBe(false);
    expect(h.published).toEqual([]);
  });
});

describe('DiagnosticScheduler delay', () => {
  it('asks for the delay with the last validation time of the document', async () => {
    const asked: (number | undefined)[] = [];
    const delays: number[] = [];
    const states = new Map<string, DocumentState>();
    let cost = 0;
    let clock = 0;
    const uri = 'file:///work/svc.yaml';
    states.set(uri, createState(uri, 1, 'svc_version: 2\n'));
    const timers: (() => void)[] = [];
    const scheduler = new DiagnosticScheduler({
      delayMs: (lastRunMs) => {
        asked.push(lastRunMs);
        return lastRunMs !== undefined && lastRunMs > 50 ? 15 : 0;
      },
      current: (u) => states.get(u),
      compute: (state) => {
        // A validation that takes `cost` milliseconds on the scheduler's clock.
        clock += cost;
        return computeDiagnostics(state);
      },
      now: () => clock,
      publish: () => undefined,
      onError: (error) => {
        throw error;
      },
      setTimer: (callback, ms) => {
        delays.push(ms);
        timers.push(callback);
      },
      clearTimer: () => undefined,
    });
    scheduler.schedule(uri);
    expect(asked).toEqual([undefined]);
    expect(delays).toEqual([0]);
    cost = 60;
    await scheduler.run(uri);
    scheduler.schedule(uri);
    expect(asked[1]).toBe(60);
    expect(delays[1]).toBe(15);
    scheduler.forget(uri);
    scheduler.schedule(uri);
    expect(asked[2]).toBeUndefined();
    expect(delays[2]).toBe(0);
  });
});
