/**
 * The playground keeps its manifest in the URL fragment, so a link shares it with no server:
 * `#yaml=<text>` or `#toml=<text>`, the text as UTF-8 in base64url. The fragment never reaches a
 * server (browsers do not send it), and the page reads it as text only.
 */
export type PlaygroundFormat = 'yaml' | 'toml';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export function playgroundFragment(format: PlaygroundFormat, text: string): string {
  return `${format}=${toBase64Url(new TextEncoder().encode(text))}`;
}

/** The manifest a fragment holds, or undefined for any fragment that is not one of ours. */
export function readPlaygroundFragment(fragment: string): { format: PlaygroundFormat; text: string } | undefined {
  const match = /^#?(yaml|toml)=([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!match) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(match[2]!));
    return { format: match[1] as PlaygroundFormat, text };
  } catch {
    return undefined;
  }
}
