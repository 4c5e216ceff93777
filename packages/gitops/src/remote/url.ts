/**
 * Telling a git URL from a local path, and keeping credentials out of everything we
 * print. The rules follow git's own: `scheme://…` is a URL, and so is scp-like
 * `[user@]host:path` when no `/` comes before the first `:`; anything else is a path.
 */
import { createHash } from 'node:crypto';
import { RefusedError } from '../errors.js';

/** Transports the applier talks to. `ext::`/`fd::` helpers and unknown schemes are refused. */
const SCHEMES = new Set(['file', 'ssh', 'git', 'http', 'https', 'git+ssh', 'ssh+git']);

const SCHEME_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

export interface RemoteUrl {
  /** The URL exactly as given, credentials included: only ever passed to git. */
  readonly url: string;
  /** The URL with its user information replaced by `***`: safe to print. */
  readonly display: string;
  /** The URL without user information: what the cache is keyed by. */
  readonly identity: string;
  /** Strings that must never appear in output (the password and, for http(s), the user name). */
  readonly secrets: readonly string[];
}

/** Null when `spec` is a local path; the parsed remote otherwise. Refuses URLs the applier will not use. */
export function parseRemote(spec: string): RemoteUrl | null {
  const scheme = SCHEME_URL.exec(spec)?.[1]?.toLowerCase();
  const transportHelper = /^[A-Za-z][A-Za-z0-9+.-]*::/.test(spec);
  const scpLike = !scheme && !transportHelper && isScpLike(spec);
  if (!scheme && !transportHelper && !scpLike) return null;
  const display = redactUrl(spec);
  if (transportHelper || (scheme && !SCHEMES.has(scheme))) {
    throw new RefusedError(
      'unsupported-url',
      `'${display}' uses a transport the applier does not support (use file://, ssh://, git://, http(s):// or host:path)`,
    );
  }

  if (/[\u0000-\u001f\u007f]/.test(spec) || spec.startsWith('-')) {
    throw new RefusedError(
      'unsupported-url',
      `'${JSON.stringify(display).slice(1, -1)}' is not a usable repository URL`,
    );
  }
  const host = scheme ? spec.slice(scheme.length + 3).replace(/^[^/]*@/, '') : spec.replace(/^[^/:]*@/, '');
  if (host.startsWith('-')) throw new RefusedError('unsupported-url', `'${display}' names a host that starts with '-'`);
  return { url: spec, display, identity: stripUserInfo(spec), secrets: secretsOf(spec, scheme) };
}

/** `host:path` (or `user@host:path`, `[::1]:path`) with no `/` before the first `:`. */
function isScpLike(spec: string): boolean {
  const colon = spec.startsWith('[') ? spec.indexOf(']:') + 1 : spec.indexOf(':');
  if (colon <= 0) return false;
  const slash = spec.indexOf('/');
  return slash < 0 || slash > colon;
}

/** The user information part (`user:password`) of a URL, or null. */
function userInfo(url: string, scheme: string | undefined): string | null {
  if (scheme) {
    const authority = url.slice(scheme.length + 3).split('/', 1)[0]!;
    const at = authority.lastIndexOf('@');
    return at < 0 ? null : authority.slice(0, at);
  }
  const match = /^([^/:@]+(?::[^/@]*)?)@/.exec(url);
  return match ? match[1]! : null;
}

function secretsOf(url: string, scheme: string | undefined): string[] {
  const info = userInfo(url, scheme);
  if (!info) return [];
  const colon = info.indexOf(':');
  const user = colon < 0 ? info : info.slice(0, colon);
  const password = colon < 0 ? '' : info.slice(colon + 1);
  // Tokens are often sent as the user name over http(s); an ssh user name is not a secret.
  const parts = [password, scheme === 'http' || scheme === 'https' ? user : ''].filter((part) => part.length > 0);
  if (parts.length === 0) return [];
  const secrets = new Set<string>([info]);
  for (const part of parts) {
    secrets.add(part);
    try {
      secrets.add(decodeURIComponent(part));
    } catch {
      /* not percent-encoded */
    }
  }
  // Very short strings would blank out ordinary words; the URL forms above still catch them.
  return [...secrets].filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
}

/** `https://user:token@host/x` → `https://***@host/x`; `user:pw@host:x` → `user:***@host:x`. */
export function redactUrl(url: string): string {
  const scheme = SCHEME_URL.exec(url)?.[1];
  if (scheme) {
    const rest = url.slice(scheme.length + 3);
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    const at = authority.lastIndexOf('@');
    return at < 0 ? url : `${scheme}://***@${rest.slice(at + 1)}`;
  }
  return url.replace(/^([^/:@]+):[^/@]*@/, '$1:***@');
}

function stripUserInfo(url: string): string {
  return redactUrl(url)
    .replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)\*\*\*@/, '$1')
    .replace(/^([^/:@]+):\*\*\*@/, '$1@');
}

/**
 * `text` with the remote's credentials removed: the URL as given becomes its display
 * form, any other `scheme://userinfo@` is redacted, and the secrets themselves are
 * replaced wherever they still appear (git may print them decoded).
 */
export function redactText(text: string, remote: RemoteUrl): string {
  let out = text.split(remote.url).join(remote.display);
  out = out.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/@'"]*@/g, '$1***@');
  for (const secret of remote.secrets) out = out.split(secret).join('***');
  return out;
}

/** A folder name for the remote's cache: readable host and path, plus a hash of the credential-free URL. */
export function cacheName(remote: RemoteUrl): string {
  const hash = createHash('sha256').update(remote.identity.replace(/\/+$/, '')).digest('hex').slice(0, 16);
  const readable = remote.identity
    .replace(SCHEME_URL, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 60);
  return `${readable || 'repo'}-${hash}.git`;
}
