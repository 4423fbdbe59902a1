/** Why a pod file (snapshot or recording) cannot be opened: which file, where in it, what was expected, what to do. */
import { NodescopeError } from '../util/nodescope-error';

export type PodFileProblem =
  | 'unreadable'
  | 'empty'
  | 'not-json'
  | 'not-pods'
  | 'truncated'
  | 'no-uid'
  | 'bad-value'
  | 'too-large'
  /** More pods, or pods heavier, than memory holds (kept-pods-budget.ts). */
  | 'too-many'
  | 'too-deep'
  | 'unsupported'
  | 'aborted';

export interface PodFileErrorDetails {
  file: string;
  problem: PodFileProblem;
  /** What is wrong, in words. */
  detail: string;
  /** Byte offset in the file, when the problem is at one place. */
  offset?: number;
  /** 1-based line, for text files. */
  line?: number;
  /** What Nodescope expected to find there. */
  expected?: string;
  /** The next step for the user. */
  next: string;
}

/** A pod file the user gave that cannot be used: they give another (usage). The message includes the next step. */
export class PodFileError extends NodescopeError<PodFileProblem> {
  declare readonly nextStep: string;
  readonly exitClass = 'usage';
  readonly file: string;
  readonly problem: PodFileProblem;
  readonly detail: string;
  readonly offset: number | undefined;
  readonly line: number | undefined;
  readonly expected: string | undefined;

  constructor(d: PodFileErrorDetails, options?: { cause?: unknown }) {
    const where = d.line !== undefined ? ` at line ${d.line}${d.offset !== undefined ? ` (byte ${d.offset})` : ''}` : d.offset !== undefined ? ` at byte ${d.offset}` : '';
    super(d.problem, `${d.file}: ${d.detail}${where}${d.expected ? `; expected ${d.expected}` : ''}. ${d.next}`, d.next, options);
    this.name = 'PodFileError';
    this.file = d.file;
    this.problem = d.problem;
    this.detail = d.detail;
    this.offset = d.offset;
    this.line = d.line;
    this.expected = d.expected;
  }
}
