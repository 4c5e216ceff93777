/** What the status bar says about a manifest, read from its text (no server round trip). */

/** The `svc_version` a manifest text states, and the schema it is checked against (a pinned one, else ours for that version). */
export function describeManifest(text: string, languageId: string): { version?: number; schema: string } {
  const head = text.slice(0, 64 * 1024);
  const version = /^\s*svc_version\s*[:=]\s*["']?(\d+)/m.exec(head)?.[1];
  const pinned =
    /^#\s*yaml-language-server:\s*\$schema=(\S+)/m.exec(head)?.[1] ??
    /^#:schema\s+(\S+)/m.exec(head)?.[1] ??
    /^\s*["']?\$schema["']?\s*[:=]\s*["']?([^"'\s]+)/m.exec(head)?.[1];
  const schema =
    pinned ??
    `built-in svc manifest schema${version ? ` (version ${version})` : ''}${languageId === 'toml' ? ', TOML' : ''}`;
  return { version: version === undefined ? undefined : Number(version), schema };
}
