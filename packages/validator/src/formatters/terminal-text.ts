/**
 * Text from a manifest or a file name, made safe to print on a terminal or in a CI log: control
 * characters (C0 but tab, DEL, C1) and the bidirectional overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) would be obeyed there (an ESC starts a colour or cursor sequence, U+202E shows
 * text reversed), so they are shown escaped: `\x1b`, `\x7f`, `\u202e`. A backslash is not
 * escaped: a `\x1b` in the output is either the escape of a control character or those four
 * characters in the file, and both read the same way to a person.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The escape shown for one unsafe character. */
export function escapeCharacter(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every unsafe character escaped. */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/** Whether `character` (one UTF-16 unit) is shown escaped. */
export function isUnsafeCharacter(character: string): boolean {
  return UNSAFE_ONE.test(character);
}

const UNSAFE_ONE = new RegExp(UNSAFE.source);
