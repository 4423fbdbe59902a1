/**
 * How long a kubelet call may go unanswered, on either API: a kubelet that takes a call and then hangs
 * (stuck, or a port that accepts and never answers) must not hold a command, or one node of many, forever.
 */

/** How long the kubelet may take to start answering a call, or stay silent in the middle of an answer. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * Once an answer has begun, each call timeout must bring at least this much of it (or its end), so an
 * answer dripped a few bytes at a time (a slow loris) cannot keep a call alive forever; 64 KiB in 30 s
 * is a link far slower than any that reaches a node.
 */
export const MIN_PROGRESS_BYTES = 64 * 1024;

export interface AnswerWatch {
  /** The answer has begun (its headers are in). */
  begun(): void;
  /** `bytes` more of it arrived. */
  received(bytes: number): void;
  /** The reader waits on its consumer: that time is not the kubelet's. */
  pause(): void;
  resume(): void;
  /** The call ended. */
  stop(): void;
}

/**
 * Watches one answer: `late(why)` is called once when it has not begun within `ms`, or when a window of
 * `ms` after that brought less than MIN_PROGRESS_BYTES; `why` says which, for the error message.
 */
export function watchAnswer(ms: number, late: (why: string) => void): AnswerWatch {
  const secs = `${ms / 1000} s`;
  let begun = false;
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    if (!begun) return late(`no answer within ${secs}`);
    if (bytes === 0) return late(`it sent nothing more for ${secs} in the middle of its answer`);
    if (bytes < MIN_PROGRESS_BYTES) {
      return late(`it sent only ${bytes} bytes of its answer in ${secs}: too slow to finish (at least ${MIN_PROGRESS_BYTES / 1024} KiB per call timeout)`);
    }
    arm();
  };
  const arm = () => {
    clearTimeout(timer);
    bytes = 0;
    timer = setTimeout(fire, ms);
  };
  arm();
  return {
    begun: () => {
      if (begun) return;
      begun = true;
      arm();
    },
    received: (n) => (bytes += n),
    pause: () => clearTimeout(timer),
    resume: arm,
    stop: () => clearTimeout(timer),
  };
}
