import { describe, expect, it } from 'vitest';
import { DocumentSettings, type ReadScoped } from '../src/document-settings.js';
import { DEFAULT_SETTINGS, readSettings, type Settings } from '../src/settings.js';

/** A client whose answers the test hands out, in any order. */
function client() {
  const requests: { uris: readonly string[]; answer: (values: unknown[]) => void; fail: (error: Error) => void }[] = [];
  const read = (uris: readonly string[]) =>
    new Promise<unknown[]>((resolve, reject) => {
      requests.push({ uris, answer: resolve, fail: reject });
    });
  return { requests, read };
}

const unscoped: Settings = { ...DEFAULT_SETTINGS, hover: false };
const noLog = () => undefined;

/** Settings per document over a client that can always be asked (`read`), or never (undefined). */
function documentSettings(read: ReadScoped | undefined, log: (message: string) => void = noLog) {
  return new DocumentSettings(
    () => read,
    () => unscoped,
    log,
  );
}

describe('DocumentSettings', () => {
  it("asks for the URIs not known yet in one request, and answers each URI's own", async () => {
    const { requests, read } = client();
    const settings = documentSettings(read);
    expect(settings.has('file:///a/svc.yaml')).toBe(false);
    expect(settings.of('file:///a/svc.yaml')).toEqual(unscoped);
    const loaded = settings.load(['file:///a/svc.yaml', 'file:///b/svc.yaml', 'file:///a/svc.yaml']);
    // Asked again while the first request is under way: no second request.
    const again = settings.load(['file:///b/svc.yaml']);
    expect(requests.map((r) => r.uris)).toEqual([['file:///a/svc.yaml', 'file:///b/svc.yaml']]);
    requests[0]!.answer([{ pathChecks: { enable: false } }, { validation: { enable: false } }]);
    await Promise.all([loaded, again]);
    expect(settings.of('file:///a/svc.yaml')).toEqual(readSettings({ pathChecks: { enable: false } }));
    expect(settings.of('file:///b/svc.yaml')).toEqual(readSettings({ validation: { enable: false } }));
    await settings.load(['file:///a/svc.yaml']);
    expect(requests).toHaveLength(1);
  });

  it('keeps the newer request’s answer when an older one arrives after it', async () => {
    const { requests, read } = client();
    const settings = documentSettings(read);
    const first = settings.load(['file:///a/svc.yaml']);
    const refreshed = settings.refresh();
    expect(requests).toHaveLength(2);
    requests[1]!.answer([{ hover: { enable: true } }]);
    await refreshed;
    requests[0]!.answer([{ hover: { enable: false } }]);
    await first;
    expect(settings.of('file:///a/svc.yaml').hover).toBe(true);
  });

  it('keeps the old values until a refresh is answered', async () => {
    const { requests, read } = client();
    const settings = documentSettings(read);
    const loaded = settings.load(['file:///a/svc.yaml']);
    requests[0]!.answer([{ format: { enable: false } }]);
    await loaded;
    const refreshed = settings.refresh();
    expect(requests[1]!.uris).toEqual(['file:///a/svc.yaml']);
    expect(settings.of('file:///a/svc.yaml').format).toBe(false);
    requests[1]!.answer([{}]);
    await refreshed;
    expect(settings.of('file:///a/svc.yaml').format).toBe(true);
  });

  it('drops an answer for a document closed meanwhile, and falls back to the unscoped settings when the client fails', async () => {
    const { requests, read } = client();
    const logged: string[] = [];
    const settings = documentSettings(read, (message) => logged.push(message));
    const closed = settings.load(['file:///a/svc.yaml']);
    settings.forget('file:///a/svc.yaml');
    requests[0]!.answer([{ hover: { enable: true } }]);
    await closed;
    expect(settings.has('file:///a/svc.yaml')).toBe(false);

    const failed = settings.load(['file:///b/svc.yaml']);
    requests[1]!.fail(new Error('no'));
    await failed;
    // Known (as the unscoped settings): not asked again on every request.
    expect(settings.has('file:///b/svc.yaml')).toBe(true);
    expect(settings.of('file:///b/svc.yaml')).toEqual(unscoped);
    expect(logged).toEqual(['reading the svc settings failed']);
  });

  it('without a client to ask: every document has the unscoped settings, at once', () => {
    const settings = documentSettings(undefined);
    expect(settings.has('file:///a/svc.yaml')).toBe(true);
    expect(settings.of('file:///a/svc.yaml')).toEqual(unscoped);
    let ran = false;
    settings.whenKnown('file:///a/svc.yaml', () => (ran = true));
    expect(ran).toBe(true);
  });

  it('asks the client only from when it can be asked (initialize says so), not before', async () => {
    const { requests, read } = client();
    let canAsk = false;
    const settings = new DocumentSettings(
      () => (canAsk ? read : undefined),
      () => unscoped,
      noLog,
    );
    expect(settings.has('file:///a/svc.yaml')).toBe(true);
    await settings.load(['file:///a/svc.yaml']);
    expect(requests).toHaveLength(0);
    canAsk = true;
    expect(settings.has('file:///a/svc.yaml')).toBe(false);
    const loaded = settings.load(['file:///a/svc.yaml']);
    expect(requests.map((r) => r.uris)).toEqual([['file:///a/svc.yaml']]);
    requests[0]!.answer([{ hover: { enable: true } }]);
    await loaded;
    expect(settings.of('file:///a/svc.yaml').hover).toBe(true);
  });
});
