/**
 * The JSON pod files, read as they stream in: a kubectl List (Nodescope's export, `kubectl get pods -o json`,
 * an API server's PodList), a top-level array of pods, NDJSON (one pod per line), one pod's JSON, and
 * recordings. Each piece the scanner cuts (json-value-scanner.ts) is parsed and checked on its own, so memory
 * holds the pods, never the file's text; every problem names the line and byte where it is.
 */
import type { DecodedPod, PodObject, PodValue } from '../pod/pod-tree';
import { parseCrashLog, type CrashLog } from '../recording/crash-log';
import { RECORDING_KEY, RECORDING_VERSION } from '../recording/recording-format';
import { recordingTimeline } from '../recording/recording-timeline';
import { JsonSyntaxError, parseExactJson } from './exact-json';
import { JsonScanError, JsonValueScanner, type Piece } from './json-value-scanner';
import type { KeptPodsBudget } from './kept-pods-budget';
import { InexactNumber, PodJsonError, podFromJson } from './pod-from-json';
import type { PodFileLimits, PodFileProgress, RecordingEvent, RecordingFile, SnapshotFile } from './pod-file';
import { parseRfc3339 } from '../util/rfc3339';
import { PodFileError, type PodFileProblem } from './pod-file-error';
import type { PodFileProvenance } from './snapshot-provenance';

const isObject = (v: unknown): v is PodObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const NEXT: Record<PodFileProblem, string> = {
  unreadable: 'Check the path and that you may read it.',
  empty: 'Open a file with pods in it.',
  'not-json': 'Nodescope opens kubectl List JSON (kubectl get pods -o json, nodescope export), NDJSON, one pod\'s JSON, .pb pod bytes and Nodescope recordings.',
  'not-pods': 'Open a file of pods: kubectl get pods -o json > pods.json, or nodescope export NODE --file pods.json.',
  truncated: 'The file was cut short (an interrupted copy or export?): copy or export it again.',
  'no-uid': "Nodescope follows a recording's pods by metadata.uid, and its own recordings always carry it: record the node again.",
  'bad-value': 'Fix or remove that pod in a copy of the file (Nodescope never changes it), or export the pods again.',
  'too-large': 'A pod in Kubernetes is at most 1.5 MiB: this is not a pod file, or it was damaged.',
  'too-deep': 'Pods nest far less deeply: this is not a pod file, or it was damaged.',
  'too-many': 'Split it into smaller files and open them one by one.',
  unsupported: 'Save the pods as JSON instead: kubectl get pods -o json > pods.json.',
  aborted: 'Open it again when you are ready.',
};

export function podFileError(file: string, problem: PodFileProblem, detail: string, where: { offset?: number; line?: number; expected?: string } = {}, cause?: unknown): PodFileError {
  return new PodFileError({ file, problem, detail, ...where, next: NEXT[problem] }, cause === undefined ? undefined : { cause });
}

type Shape = 'unknown' | 'list' | 'pods' | 'recording';

export interface JsonReadOptions {
  limits: PodFileLimits;
  /** Bounds the pods kept: by count, and by the heap they fill. */
  budget: KeptPodsBudget;
  signal?: AbortSignal;
  onProgress?: (progress: PodFileProgress) => void;
  totalBytes?: number;
}

export type JsonPodFile = Omit<SnapshotFile, 'path' | 'provenance'> | (Omit<RecordingFile, 'path' | 'provenance'> & { provenance: PodFileProvenance });

class JsonPodCollector {
  shape: Shape = 'unknown';
  values = 0;
  readonly pods: DecodedPod[] = [];
  private readonly skippedKinds = new Map<string, number>();
  private unknownKeys = new Set<string>();
  private podsWithUnknownKeys = 0;
  private repeatedItems = 0;
  // Recording state.
  private header: PodObject | undefined;
  private readonly initial: DecodedPod[] = [];
  private synced = false;
  private readonly events: RecordingEvent[] = [];
  private readonly crashLogs: CrashLog[] = [];
  private start = 0;
  private endTime: number | undefined;
  /** The latest time so far and its line: the next line's time may not be earlier. */
  private lastTime = { time: -Infinity, line: 1, text: '' };
  private skippedLines = new Map<string, number>();
  readonly notes: string[] = [];

  constructor(
    private readonly file: string,
    private readonly maxDepth: number,
    private readonly budget: KeptPodsBudget,
    private readonly totalBytes: number | undefined,
    /** Called when the file turns out to be a recording: its lines are whole values from then on. */
    private readonly onRecording: () => void,
  ) {}

  item(piece: Piece): void {
    if (this.shape === 'recording') throw this.error('not-pods', 'a List inside a recording', piece, 'one recording line per line');
    this.shape = 'list';
    const value = this.parse(piece);
    if (isObject(value) && typeof value.kind === 'string' && value.kind !== 'Pod') {
      this.skippedKinds.set(value.kind, (this.skippedKinds.get(value.kind) ?? 0) + 1);
      return;
    }
    this.pods.push(this.toPod(value, piece, `item ${this.pods.length}`));
  }

  /** A List with a second `items` array: as in Go and jq, the last one is the List's. */
  itemsAgain(): void {
    this.pods.length = 0;
    this.skippedKinds.clear();
    this.unknownKeys.clear();
    this.podsWithUnknownKeys = 0;
    this.repeatedItems++;
  }

  value(piece: Piece, items: number): void {
    this.values++;
    const v = this.parse(piece);
    if (this.values === 1) {
      if (isObject(v) && RECORDING_KEY in v) {
        this.recordingHeader(v, piece);
        return;
      }
      if (Array.isArray(v)) {
        this.shape = 'list';
        return;
      }
      if (isObject(v) && (items > 0 || 'items' in v)) {
        if (v.kind !== undefined && v.kind !== 'List' && v.kind !== 'PodList') throw this.error('not-pods', `a ${JSON.stringify(v.kind)} with items, not a List of pods`, piece, 'kind "List" or "PodList"');
        if (!Array.isArray(v.items)) throw this.error('not-pods', '"items" is not a list', piece, 'a list of pods in "items"');
        this.shape = 'list';
        return;
      }
      this.shape = 'pods';
    } else if (this.shape === 'recording') {
      this.recordingLine(v, piece);
      return;
    } else if (this.shape === 'list' || items > 0 || (isObject(v) && 'items' in v)) {
      throw this.error('not-json', 'a second JSON value after a List', piece, 'the end of the file after the List');
    }
    if (isObject(v) && typeof v.kind === 'string' && v.kind !== 'Pod') {
      throw this.error('not-pods', `a ${JSON.stringify(v.kind)}, not a pod`, piece, 'a Pod, a List of pods, or one pod per line');
    }
    this.pods.push(this.toPod(v, piece, this.values === 1 ? 'the pod' : `line ${piece.line}`));
  }

  /** The scan stopped at a problem: a recording's torn last line is expected after a crash, anything else is an error. */
  scanFailed(err: JsonScanError): void {
    if (err.problem === 'truncated' && this.shape === 'recording' && this.synced && err.valueStart) {
      this.notes.push(
        `the last line (line ${err.valueStart.line}, from byte ${err.valueStart.offset}) was cut off, as after a crash or a full disk: that event was left out`,
      );
      return;
    }
    const got = this.shape === 'list' || this.shape === 'pods' ? ` (${this.pods.length} pods were read before it)` : '';
    throw podFileError(this.file, err.problem, `${err.detail}${err.problem === 'truncated' ? got : ''}`, { offset: err.offset, line: err.line, expected: err.expected }, err);
  }

  finish(): JsonPodFile {
    if (this.values === 0 && this.shape === 'unknown') throw podFileError(this.file, 'empty', 'the file holds no JSON value, only white space');
    if (this.repeatedItems) this.notes.push(`the List has "items" ${this.repeatedItems + 1} times: the last was read, as kubectl and jq read it`);
    if (this.podsWithUnknownKeys) {
      const some = [...this.unknownKeys].slice(0, 3).join(', ');
      this.notes.push(`${this.podsWithUnknownKeys} pods carry fields this Nodescope does not know (${some}${this.unknownKeys.size > 3 ? ', …' : ''}): they are kept but not printed`);
    }
    if (this.shape === 'recording') return this.finishRecording();
    if (this.skippedKinds.size) {
      const kinds = [...this.skippedKinds].map(([k, n]) => `${n} ${k}`).join(', ');
      if (this.pods.length === 0) throw podFileError(this.file, 'not-pods', `the List holds no pods, only ${kinds}`);
      this.notes.push(`left out ${kinds} (not pods)`);
    }
    const format = this.shape === 'list' ? 'list-json' : this.values === 1 ? 'pod-json' : 'ndjson';
    return { kind: 'snapshot', format, pods: this.pods, notes: this.notes };
  }

  // ---- pods ----

  private parse(piece: Piece): PodValue {
    const text = piece.bytes.toString('utf8');
    try {
      return JSON.parse(text) as PodValue;
    } catch {
      // JSON.parse does not say reliably where: the exact parser does (and throws).
      return this.parseExact(text, piece);
    }
  }

  private parseExact(text: string, piece: Piece): PodValue {
    try {
      return parseExactJson(text, this.maxDepth);
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      const before = text.slice(0, err.index);
      let lines = 0;
      for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) lines++;
      const problem = err.problem.startsWith('nested deeper') ? 'too-deep' : 'not-json';
      throw podFileError(this.file, problem, err.problem, { offset: piece.offset + Buffer.byteLength(before), line: piece.line + lines, expected: err.expected }, err);
    }
  }

  /**
   * `select` finds the pod in the piece's value again after an exact re-parse (a recording line holds it in
   * `object`). A snapshot keeps every pod, with a uid or not (`pods` and `export` print them all; what follows
   * pods by uid keeps the first of each, first-pod-of-uid.ts); a recording's are followed by uid here.
   */
  private toPod(value: PodValue, piece: Piece, fallback: string, select?: (whole: PodValue) => PodValue): DecodedPod {
    if (!isObject(value) || !isObject(value.metadata)) {
      const found = isObject(value) ? `an object with ${Object.keys(value).slice(0, 5).map((k) => JSON.stringify(k)).join(', ') || 'no keys'}` : Array.isArray(value) ? 'a list' : typeof value;
      throw this.error('not-pods', `${found}, not a pod`, piece, 'a pod: an object with metadata, spec and status');
    }
    const label = podLabel(value, fallback);
    let converted;
    try {
      try {
        converted = podFromJson(value);
      } catch (err) {
        if (!(err instanceof InexactNumber)) throw err;
        // An integer beyond 2^53 was rounded by JSON.parse: parse this pod again, exactly.
        const exact = this.parseExact(piece.bytes.toString('utf8'), piece);
        converted = podFromJson(select ? select(exact) : exact, { exact: true });
      }
    } catch (err) {
      if (err instanceof PodJsonError) throw this.error('bad-value', `pod ${label}: ${err.message}`, piece);
      throw err;
    }
    if (converted.unknownKeys.length) {
      this.podsWithUnknownKeys++;
      for (const k of converted.unknownKeys) if (this.unknownKeys.size < 20) this.unknownKeys.add(k);
    }
    const uid = (converted.pod.metadata as PodObject).uid;
    if (select && (typeof uid !== 'string' || uid === '')) throw this.error('no-uid', `pod ${label} has no metadata.uid`, piece, 'every pod of a recording to have its uid');
    this.budget.add(piece.offset + piece.bytes.length, this.totalBytes);
    return { pod: converted.pod, unknownFields: [] };
  }

  /** A recording line with a time that cannot be right: named, since a wrong time silently moves every later event. */
  private timeError(detail: string, piece: Piece): PodFileError {
    return new PodFileError({
      file: this.file,
      problem: 'bad-value',
      detail,
      offset: piece.offset,
      line: piece.line,
      expected: 'an RFC 3339 UTC time as Nodescope writes it, e.g. 2026-11-23T10:00:00.000Z, no earlier than the line before',
      next: 'Correct that time in a copy of the file (Nodescope never changes it).',
    });
  }

  private error(problem: PodFileProblem, detail: string, piece: Piece, expected?: string): PodFileError {
    return podFileError(this.file, problem, detail, { offset: piece.offset, line: piece.line, ...(expected ? { expected } : {}) });
  }

  // ---- recordings ----

  private recordingHeader(v: PodObject, piece: Piece): void {
    const version = v[RECORDING_KEY];
    if (typeof version !== 'number' || !Number.isInteger(version)) throw this.error('bad-value', `the recording header's ${RECORDING_KEY} is not a version number`, piece);
    if (version > RECORDING_VERSION) {
      throw new PodFileError({
        file: this.file,
        problem: 'unsupported',
        detail: `a recording of format version ${version}; this Nodescope reads version ${RECORDING_VERSION}`,
        offset: piece.offset,
        line: piece.line,
        next: 'Open it with a newer Nodescope.',
      });
    }
    const start = typeof v.startedAt === 'string' ? parseRfc3339(v.startedAt) : undefined;
    if (start === undefined) throw this.timeError(`the recording header's startedAt ${JSON.stringify(v.startedAt ?? null)} is not an RFC 3339 time`, piece);
    this.start = start;
    this.lastTime = { time: start, line: piece.line, text: v.startedAt as string };
    this.header = v;
    this.shape = 'recording';
    this.onRecording();
  }

  private recordingLine(v: PodValue, piece: Piece): void {
    if (!isObject(v) || typeof v.type !== 'string' || typeof v.time !== 'string') throw this.error('bad-value', 'a recording line without a type and a time', piece, '{"time":…,"type":…}');
    const time = parseRfc3339(v.time);
    if (time === undefined) throw this.timeError(`a recording line whose time ${JSON.stringify(v.time)} is not an RFC 3339 time`, piece);
    // Times never go back (the recorder's clock is monotonic): an earlier one means this line or an earlier one
    // was damaged or edited, and reading on would place events at the wrong instants.
    const last = this.lastTime;
    if (time < last.time) {
      throw this.timeError(`the time ${v.time} is earlier than ${last.text} on line ${last.line}${last.line === 1 ? ' (the header\'s startedAt)' : ''}, but times in a recording never go back: one of the two lines is wrong`, piece);
    }
    this.lastTime = { time, line: piece.line, text: v.time };
    if (this.endTime !== undefined) throw this.error('bad-value', `a ${v.type} line after the recording's END line`, piece, 'the end of the file');
    switch (v.type) {
      case 'INITIAL':
        if (this.synced) throw this.error('bad-value', 'an INITIAL pod after the SYNCED line', piece, 'ADDED, MODIFIED or DELETED events');
        this.initial.push(this.toPod(v.object ?? null, piece, `line ${piece.line}`, objectOf));
        return;
      case 'SYNCED':
        if (typeof v.pods === 'number' && v.pods !== this.initial.length) {
          throw this.error('bad-value', `the SYNCED line counts ${v.pods} initial pods but ${this.initial.length} came before it`, piece, 'the whole initial pod set before SYNCED');
        }
        this.synced = true;
        return;
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        if (!this.synced) throw this.error('bad-value', `a ${v.type} event before the SYNCED line`, piece, 'the initial pod set first');
        const pod = this.toPod(v.object ?? null, piece, `line ${piece.line}`, objectOf);
        this.events.push({ time, type: v.type, pod });
        return;
      }
      case 'LOG': {
        if (!this.synced) throw this.error('bad-value', 'a LOG line before the SYNCED line', piece, 'the initial pod set first');
        const log = parseCrashLog(v, time);
        if (typeof log === 'string') throw this.error('bad-value', log, piece, 'a LOG line as docs/recording-format.md describes it');
        this.crashLogs.push(log);
        return;
      }
      case 'END':
        this.endTime = time;
        return;
      default:
        // A later version 1 writer may add line types; what this one does not know is skipped, and said.
        this.skippedLines.set(v.type, (this.skippedLines.get(v.type) ?? 0) + 1);
    }
  }

  private finishRecording(): JsonPodFile {
    const h = this.header!;
    if (!this.synced) {
      throw podFileError(this.file, 'truncated', `the recording ends before its initial pod set is complete (${this.initial.length} pods, no SYNCED line)`, {
        expected: 'the SYNCED line after the initial pods',
      });
    }
    const start = this.start;
    const complete = this.endTime !== undefined;
    const end = this.endTime ?? this.lastTime.time;
    if (!complete) this.notes.push(`the recording was not stopped cleanly (no END line): it ends with its last event, at ${new Date(end).toISOString()}`);
    for (const [type, n] of this.skippedLines) this.notes.push(`skipped ${n} lines of type ${type}, which this Nodescope does not know`);
    const provenance: PodFileProvenance = { takenAt: new Date(start).toISOString() };
    if (typeof h.node === 'string') provenance.node = h.node;
    if (typeof h.origin === 'string') provenance.origin = h.origin;
    const podsAt = recordingTimeline(this.initial, this.events);
    return { kind: 'recording', format: 'recording', provenance, start, end, initial: this.initial, events: this.events, crashLogs: this.crashLogs, podsAt, complete, notes: this.notes };
  }
}

const objectOf = (line: PodValue): PodValue => (line as PodObject).object ?? null;

function podLabel(pod: PodObject, fallback: string): string {
  const meta = pod.metadata as PodObject;
  if (typeof meta.name !== 'string' || meta.name === '') return fallback;
  return typeof meta.namespace === 'string' && meta.namespace ? `${meta.namespace}/${meta.name}` : meta.name;
}

/** Reads JSON pod data from `chunks`; `file` names it in errors. */
export async function readJsonPods(chunks: AsyncIterable<Uint8Array>, file: string, options: JsonReadOptions): Promise<JsonPodFile> {
  const collector = new JsonPodCollector(file, options.limits.maxDepth, options.budget, options.totalBytes, () => (scanner.lineDelimited = true));
  const scanner = new JsonValueScanner(
    { item: (p) => collector.item(p), value: (p, n) => collector.value(p, n), itemsAgain: () => collector.itemsAgain() },
    { maxPieceBytes: options.limits.maxPieceBytes, maxDepth: options.limits.maxDepth },
  );
  try {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw podFileError(file, 'aborted', 'opening was cancelled');
      scanner.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (scanner.bytes > options.limits.maxFileBytes) throw tooLargeFile(file, scanner.bytes, options.limits.maxFileBytes);
      options.budget.checkHeap(scanner.bytes, options.totalBytes);
      options.onProgress?.({ pods: collector.pods.length, bytes: scanner.bytes, ...(options.totalBytes !== undefined ? { totalBytes: options.totalBytes } : {}) });
    }
    scanner.end();
  } catch (err) {
    if (!(err instanceof JsonScanError)) throw err;
    collector.scanFailed(err);
  }
  return collector.finish();
}

export function tooLargeFile(file: string, bytes: number, max: number): PodFileError {
  const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return new PodFileError({
    file,
    problem: 'too-large',
    detail: `the file is ${bytes > max ? `larger than ${gib(max)}` : gib(bytes)}; Nodescope opens pod files of up to ${gib(max)} (their pods must fit in memory)`,
    next: "Split it, e.g. jq -c '.items[]' FILE | split -l 20000 - part- (each part is NDJSON), or export fewer pods with --mask.",
  });
}
