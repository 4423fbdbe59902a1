/**
 * Text from outside Nodescope (pod names and fields, the kubelet's and sshd's messages) as it may be
 * shown on a terminal: control characters become visible escapes (`\x1b`, `\x07`, `\u202e`), so a pod
 * named `evil\e]0;PWNED\a\e[2J` cannot retitle or clear the terminal, and bidirectional overrides
 * cannot make text read other than it is. Every line the CLI shows a person goes through here;
 * JSON output does not (JSON escapes control characters itself and must stay byte-exact).
 */

// C0 controls, DEL, C1 controls (U+0080–U+009F: an 8-bit CSI starts an escape sequence too), and the
// Unicode bidirectional marks, embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_KEEPING_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of outside text (a table cell, a pod name): every control character escaped, newlines too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** A message that may span lines: newlines kept, every other control character escaped. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE_KEEPING_LINES, visible);
}

/** Writes a message for a person on stderr, escaped, with its newline. */
export function printError(message: string): void {
  process.stderr.write(`${terminalText(message)}\n`);
}
