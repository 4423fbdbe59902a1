/**
 * A log line's ANSI escape codes: SGR colour (ESC [ … m, the 8 + 8 bright foreground colours and bold) becomes
 * styled runs; every other escape and control character is dropped, so a line can never move the cursor,
 * retitle anything or be read as markup. The runs are text for React to render as text nodes.
 */
export interface AnsiRun {
  text: string;
  /** 0–15: the terminal palette's foreground (8–15 bright); undefined: the default. */
  fg?: number;
  bold?: boolean;
}

// CSI (ESC [ params final), OSC (ESC ] … BEL or ESC \), other two-byte escapes, and C0/C1 controls but tab.
const ESCAPES = /\u001b\[([0-9;?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]?|[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

export function ansiRuns(line: string): AnsiRun[] {
  const runs: AnsiRun[] = [];
  let fg: number | undefined;
  let bold = false;
  let last = 0;
  const add = (text: string) => {
    if (!text) return;
    const prev = runs.at(-1);
    if (prev && prev.fg === fg && !!prev.bold === bold) prev.text += text;
    else runs.push({ text, ...(fg !== undefined ? { fg } : {}), ...(bold ? { bold } : {}) });
  };
  for (const m of line.matchAll(ESCAPES)) {
    add(line.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== 'm') continue;
    for (const p of (m[1] || '0').split(';').map(Number)) {
      if (p === 0) (fg = undefined), (bold = false);
      else if (p === 1) bold = true;
      else if (p === 22) bold = false;
      else if (p >= 30 && p <= 37) fg = p - 30;
      else if (p >= 90 && p <= 97) fg = p - 90 + 8;
      else if (p === 39) fg = undefined;
    }
  }
  add(line.slice(last));
  return runs;
}

/** The line as plain text: what search, copy and save see. */
export const ansiPlain = (line: string): string => ansiRuns(line).map((r) => r.text).join('');
