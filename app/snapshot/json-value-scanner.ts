/**
 * Splits a stream of JSON bytes into the pieces a pod file is made of, without ever holding the whole file:
 * - each element of a top-level `items` array (a kubectl List) or of a top-level array: one pod each;
 * - each top-level value (one for a List or a pod file, one per line for NDJSON and recordings), handed
 *   over without its `items` elements (`"items": []`), so a List's shell stays small.
 * It only follows the structure (brackets, strings, keys of the top-level object); each piece is parsed on
 * its own (JSON.parse), so the scan is a plain byte loop. Pieces are bounded in size, nesting in depth, and
 * every problem is reported with the byte offset and line where it is.
 */

export interface ScanLimits {
  /** Largest single piece (one pod, or a List without its items). */
  maxPieceBytes: number;
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
}

export interface Piece {
  bytes: Buffer;
  /** Byte offset of its first byte in the stream. */
  offset: number;
  /** 1-based line of its first byte. */
  line: number;
}

export interface ScanSink {
  /** One element of an items array (or of a top-level array). */
  item(piece: Piece): void;
  /** One top-level value, its items left out; `items` is how many were handed to item(). */
  value(piece: Piece, items: number): void;
  /**
   * The top-level object has another `items` array: the items handed so far are not its items, since a
   * repeated key's last value wins (Go's decoder, jq, JSON.parse).
   */
  itemsAgain(): void;
}

export type ScanProblem = 'not-json' | 'truncated' | 'too-large' | 'too-deep';

export class JsonScanError extends Error {
  constructor(
    readonly problem: ScanProblem,
    readonly offset: number,
    readonly line: number,
    readonly detail: string,
    readonly expected: string,
    /** For 'truncated': where the unfinished top-level value began. */
    readonly valueStart?: { offset: number; line: number },
  ) {
    super(`${detail} at line ${line} (byte ${offset}); expected ${expected}`);
    this.name = 'JsonScanError';
  }
}

const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === NEWLINE || c === 0x0d || c === 0x09;
/**
 * What was found, without quoting the file: it may be any file of the user's (a page can name one), so only
 * JSON's own punctuation is shown as it is; other text by what it starts.
 */
const show = (c: number) => {
  if (c === QUOTE) return 'a string';
  if ((c >= 0x30 && c <= 0x39) || c === 0x2d) return 'a number';
  if (c === OPEN_OBJ || c === CLOSE_OBJ || c === OPEN_ARR || c === CLOSE_ARR || c === COMMA || c === COLON) return `'${String.fromCharCode(c)}'`;
  return 'other text';
};

/** Collects a piece's bytes across chunks. */
class Gather {
  parts: Buffer[] = [];
  size = 0;
  offset = 0;
  line = 0;
  start(offset: number, line: number) {
    this.parts = [];
    this.size = 0;
    this.offset = offset;
    this.line = line;
  }
  add(b: Buffer) {
    if (b.length === 0) return;
    this.parts.push(b);
    this.size += b.length;
  }
  take(): Piece {
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    return { bytes, offset: this.offset, line: this.line };
  }
}

export class JsonValueScanner {
  private pos = 0; // stream offset of the current chunk's first byte
  private line = 1;
  private depth = 0;
  private readonly stack: Uint8Array;
  private inString = false;
  private escape = false;
  /** Depth at which items are elements (2 inside a List's items, 1 in a top-level array), 0 when none. */
  private itemsDepth = 0;
  private inItem = false;
  private itemCount = 0;
  /** In the top-level object, the next string is a key. */
  private expectKey = false;
  private keyStart = -1;
  private keyParts: Buffer[] = [];
  private lastKey = '';
  private readonly shell = new Gather();
  private readonly item = new Gather();
  private bomChecked = false;
  /** Every value is one line (a recording): a line break inside a value is an error, not more of it. */
  lineDelimited = false;

  constructor(
    private readonly sink: ScanSink,
    private readonly limits: ScanLimits,
  ) {
    this.stack = new Uint8Array(limits.maxDepth + 2);
  }

  /** Bytes consumed so far. */
  get bytes(): number {
    return this.pos;
  }

  push(chunk: Buffer): void {
    let i = 0;
    if (!this.bomChecked && chunk.length > 0) {
      this.bomChecked = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    const n = chunk.length;
    let shellFrom = this.depth > 0 && !this.inItemsArray() ? i : -1;
    let itemFrom = this.inItem ? i : -1;
    if (this.keyStart >= 0) this.keyStart = i;
    if (this.skippable()) i = this.skip(chunk, i);
    const sinkShell = (end: number) => {
      if (shellFrom >= 0) {
        this.shell.add(chunk.subarray(shellFrom, end));
        shellFrom = -1;
        if (this.shell.size > this.limits.maxPieceBytes) this.tooLarge(this.shell);
      }
    };
    while (i < n) {
      let c = chunk[i]!;
      if (this.inString) {
        // Inside strings only quotes and escapes matter.
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        while (c !== QUOTE && c !== BACKSLASH && c !== NEWLINE) {
          if (++i === n) break;
          c = chunk[i]!;
        }
        if (i === n) break;
        // JSON strings hold no raw line breaks: one here is a line cut short (a torn NDJSON line) or not JSON.
        if (c === NEWLINE) throw new JsonScanError('not-json', this.pos + i, this.line, 'a line break inside a string (is the line cut short?)', 'a closing quote');
        if (c === BACKSLASH) {
          this.escape = true;
          i++;
          continue;
        }
        this.inString = false;
        if (this.keyStart >= 0) this.endKey(chunk, i);
        i++;
        continue;
      }
      switch (c) {
        case QUOTE:
          if (this.depth === 0) this.notJson(chunk, i);
          if (this.depth === this.itemsDepth) this.expectedPod(chunk, i);
          this.inString = true;
          if (this.expectKey && this.depth === 1) {
            this.keyStart = i + 1;
            this.keyParts = [];
            this.expectKey = false;
          }
          break;
        case OPEN_OBJ:
        case OPEN_ARR: {
          const d = this.depth;
          if (d >= this.limits.maxDepth) {
            throw new JsonScanError('too-deep', this.pos + i, this.line, `nested deeper than ${this.limits.maxDepth} levels`, 'a pod, which nests far less');
          }
          if (d === 0) {
            this.shell.start(this.pos + i, this.line);
            shellFrom = i;
            this.itemCount = 0;
            this.lastKey = '';
            if (c === OPEN_ARR) {
              this.itemsDepth = 1;
              sinkShell(i + 1);
            } else this.expectKey = true;
          } else if (d === 1 && c === OPEN_ARR && this.stack[1] === OPEN_OBJ && this.lastKey === 'items' && this.itemsDepth <= 0) {
            if (this.itemsDepth < 0) {
              this.itemCount = 0;
              this.sink.itemsAgain();
            }
            this.itemsDepth = 2;
            sinkShell(i + 1);
          } else if (d === this.itemsDepth) {
            if (c !== OPEN_OBJ) this.expectedPod(chunk, i);
            this.inItem = true;
            this.item.start(this.pos + i, this.line);
            itemFrom = i;
          }
          this.stack[++this.depth] = c;
          if (this.skippable()) {
            i = this.skip(chunk, i + 1);
            continue;
          }
          break;
        }
        case CLOSE_OBJ:
        case CLOSE_ARR: {
          const open = this.stack[this.depth];
          if (this.depth === 0 || open !== (c === CLOSE_OBJ ? OPEN_OBJ : OPEN_ARR)) {
            const wanted = this.depth === 0 ? 'a value' : open === OPEN_OBJ ? "',' or '}'" : "',' or ']'";
            throw new JsonScanError('not-json', this.pos + i, this.line, `unexpected ${show(c)}`, wanted);
          }
          this.depth--;
          const d = this.depth;
          if (this.inItem && d === this.itemsDepth) {
            this.item.add(chunk.subarray(itemFrom, i + 1));
            itemFrom = -1;
            this.inItem = false;
            if (this.item.size > this.limits.maxPieceBytes) this.tooLarge(this.item);
            this.itemCount++;
            this.sink.item(this.item.take());
          } else if (d === this.itemsDepth - 1 && this.itemsDepth > 0) {
            // The items array closes: the shell resumes with its ']'.
            this.itemsDepth = this.itemsDepth === 2 ? -1 : 0;
            shellFrom = i;
          }
          if (d === 0) {
            sinkShell(i + 1);
            this.itemsDepth = 0;
            this.expectKey = false;
            this.sink.value(this.shell.take(), this.itemCount);
          }
          break;
        }
        case COMMA:
          if (this.depth === 1 && this.stack[1] === OPEN_OBJ) this.expectKey = true;
          else if (this.depth === 0) this.notJson(chunk, i);
          break;
        case NEWLINE:
          if (this.lineDelimited && this.depth > 0) {
            throw new JsonScanError('not-json', this.pos + i, this.line, 'the line ends before its JSON value does (is the line cut short?)', 'one whole JSON value per line');
          }
          this.line++;
          break;
        case COLON:
          if (this.depth === 0) this.notJson(chunk, i);
          break;
        default:
          if (this.depth === 0 && !isSpace(c)) this.notJson(chunk, i);
          else if (this.depth === this.itemsDepth && this.depth > 0 && !isSpace(c)) this.expectedPod(chunk, i);
      }
      i++;
    }
    if (this.keyStart >= 0) {
      this.keyParts.push(chunk.subarray(this.keyStart, n));
      this.keyStart = 0;
    }
    if (itemFrom >= 0) {
      this.item.add(chunk.subarray(itemFrom, n));
      if (this.item.size > this.limits.maxPieceBytes) this.tooLarge(this.item);
    }
    sinkShell(n);
    this.pos += n;
  }

  /** The stream ended: anything unfinished is a truncated file. */
  end(): void {
    if (this.depth === 0 && !this.inString) return;
    const open = this.inItem ? this.item : this.shell;
    throw new JsonScanError(
      'truncated',
      this.pos,
      this.line,
      `the file ends inside ${this.inString ? 'a string' : this.stack[this.depth] === OPEN_ARR ? 'a list' : 'an object'} (the value begun at line ${open.line}, byte ${open.offset})`,
      this.inString ? 'a closing quote' : `${this.depth} more closing bracket${this.depth === 1 ? '' : 's'}`,
      { offset: this.shell.offset, line: this.shell.line },
    );
  }

  /** Inside this container only its end matters (not a List's items array, nor the top-level object's keys). */
  private skippable(): boolean {
    return this.depth >= 2 && !(this.itemsDepth > 0 && this.depth === this.itemsDepth);
  }

  /**
   * The hot loop: most of a file is the inside of pods, where only strings and brackets count. Runs from `i`
   * to the bracket that closes the current container (returned, not consumed) or the chunk's end.
   */
  private skip(chunk: Buffer, i: number): number {
    const n = chunk.length;
    const stack = this.stack;
    const max = this.limits.maxDepth;
    const level = this.depth;
    const lineDelimited = this.lineDelimited;
    let depth = level;
    let line = this.line;
    let inString = this.inString;
    let escape = this.escape;
    const fail = (problem: ScanProblem, detail: string, expected: string): never => {
      throw new JsonScanError(problem, this.pos + i, line, detail, expected);
    };
    outer: while (i < n) {
      if (inString) {
        if (escape) {
          escape = false;
          i++;
        }
        for (;;) {
          if (i >= n) break outer;
          const c = chunk[i]!;
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            if (i + 1 >= n) {
              escape = true;
              i = n;
              break outer;
            }
            i += 2;
            continue;
          }
          if (c === NEWLINE) fail('not-json', 'a line break inside a string (is the line cut short?)', 'a closing quote');
          i++;
        }
        inString = false;
        i++;
        continue;
      }
      const c = chunk[i]!;
      if (c <= QUOTE) {
        if (c === QUOTE) inString = true;
        else if (c === NEWLINE) {
          if (lineDelimited) fail('not-json', 'the line ends before its JSON value does (is the line cut short?)', 'one whole JSON value per line');
          line++;
        }
        i++;
        continue;
      }
      // '[' and '{' differ only in bit 0x20, as do ']' and '}'.
      const folded = c | 0x20;
      if (folded === OPEN_OBJ) {
        if (depth >= max) fail('too-deep', `nested deeper than ${max} levels`, 'a pod, which nests far less');
        stack[++depth] = c;
      } else if (folded === CLOSE_OBJ) {
        if (depth === level) break;
        if (stack[depth] !== (c === CLOSE_OBJ ? OPEN_OBJ : OPEN_ARR)) fail('not-json', `unexpected ${show(c)}`, stack[depth] === OPEN_OBJ ? "',' or '}'" : "',' or ']'");
        depth--;
      }
      i++;
    }
    this.depth = depth;
    this.line = line;
    this.inString = inString;
    this.escape = escape;
    return i;
  }

  private inItemsArray(): boolean {
    return this.itemsDepth > 0 && this.depth >= this.itemsDepth;
  }

  private endKey(chunk: Buffer, i: number): void {
    this.keyParts.push(chunk.subarray(this.keyStart, i));
    this.keyStart = -1;
    const raw = Buffer.concat(this.keyParts).toString('utf8');
    this.keyParts = [];
    // Keys of the top-level object are plain words; an escaped one is compared as written.
    this.lastKey = raw.length <= 64 ? raw : '';
  }

  private notJson(chunk: Buffer, i: number): never {
    const offset = this.pos + i;
    // A file that does not even start as JSON says only where, and what a pod file starts with.
    if (offset === 0 || (this.pos === 0 && chunk.subarray(0, i).every(isSpace))) throw new JsonScanError('not-json', offset, this.line, 'this is not JSON', "'{' or '['");
    throw new JsonScanError('not-json', offset, this.line, `unexpected text after a complete value: found ${show(chunk[i]!)}`, "'{' or '[' (another JSON value) or the end of the file");
  }

  private expectedPod(chunk: Buffer, i: number): never {
    throw new JsonScanError('not-json', this.pos + i, this.line, `an item that is not an object: found ${show(chunk[i]!)}`, 'a pod object');
  }

  private tooLarge(g: Gather): never {
    throw new JsonScanError('too-large', g.offset, g.line, `a value larger than ${Math.round(this.limits.maxPieceBytes / 1024 / 1024)} MiB`, 'one pod of at most that size (a pod in Kubernetes is at most 1.5 MiB)');
  }
}
