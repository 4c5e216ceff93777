/**
 * The TOML version every caller of the parser reads: 1.0, the version our docs promise (see
 * docs/decisions.md, "(#33) TOML 1.0, exactly as tomllib reads it"). The parser's default is 1.1,
 * which also takes trailing commas and line breaks in inline tables, `\x` and `\e` escapes and
 * times without seconds. A module of its own so the editing engine can name it without loading
 * the parser.
 */
export const TOML_PARSER_OPTIONS = { tomlVersion: '1.0' } as const;
