/**
 * A path as one parameter of a socat address (`UNIX-CONNECT:<path>`). socat reads its addresses with its own
 * lexer: `:` and `,` end a parameter, `!!` (1.7) and `%` `|` (1.8) separate addresses, `'` and `"` quote, and
 * `(` `[` `{` open a group that runs to its closer (1.7.4 reads past the end of an unclosed `'`). A backslash
 * takes the next character literally in every version since 1.5, except before a letter or `0` (C escapes such
 * as `\n`), so every ASCII character but letters, digits and `/._-` gets one; bytes past ASCII are never special.
 * The result still needs the shell's quoting (shellQuote) when it goes into a command line.
 */
export function socatAddressPath(path: string): string {
  return path.replace(/[^A-Za-z0-9/._\-\u0080-\uffff]/g, '\\$&');
}
