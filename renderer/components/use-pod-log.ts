import { useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { LOG_LINES_MAX, LOG_READ_CHARS_MAX, type LogRead, type LogRequest } from '../../app/contract/logs';
import { errorText } from '../format/error-text';

export type PodLogState =
  | { kind: 'loading' }
  /**
   * omitted: older lines of the range the app left out, to keep its answer bounded; captured: kept (by a recording
   * or the pod's history) when the instance ended; from: where the node's lines come from (its files, or the
   * kubelet's REST API).
   */
  | { kind: 'lines'; following: boolean; omitted?: number; captured?: Captured; from?: string }
  /** The node has no log to show and says why (offline file, not started, no previous instance). */
  | { kind: 'unavailable'; message: string; nextStep: string }
  | { kind: 'error'; message: string };

export type Captured = NonNullable<Extract<LogRead, { status: 'ok' }>['captured']>;

export interface PodLog {
  /** Held in place and appended to (a follow's batches); `version` says when it changed. */
  lines: string[];
  /** How many lines have been dropped from the front of `lines` (past the bounds) since it started. */
  dropped: number;
  version: number;
  state: PodLogState;
  /** Containers with a log on the node, as the node answered. */
  containers: string[] | null;
  /** Why a follow ended on its own (the container restarted, the read failed). */
  ended: string | null;
}

/**
 * A pod container's log for the Logs tab: read once (logs.read), or read and followed (logs.follow, its
 * lines as the subscription's progress). Asking for anything else (another pod, container, previous,
 * timestamps) or leaving the tab cancels the follow, which stops it on the app's side.
 */
export function usePodLog(bridge: Bridge, request: Required<Pick<LogRequest, 'nodeId' | 'uid' | 'previous' | 'timestamps' | 'tailLines'>> & { container: string | undefined; follow: boolean }): PodLog {
  const lines = useRef<string[]>([]);
  const dropped = useRef(0);
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<PodLogState>({ kind: 'loading' });
  const [containers, setContainers] = useState<string[] | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const { nodeId, uid, container, previous, timestamps, tailLines, follow } = request;

  useEffect(() => {
    let current = true;
    lines.current = [];
    dropped.current = 0;
    let chars = 0;
    setVersion((v) => v + 1);
    setState({ kind: 'loading' });
    setEnded(null);
    const input = { nodeId, uid, previous, timestamps, tailLines, ...(container ? { container } : {}) };
    const append = (more: string[]) => {
      const all = lines.current;
      for (const l of more) {
        all.push(l);
        chars += l.length;
      }
      // The oldest go first past either bound, as a terminal's scrollback.
      let drop = Math.max(0, all.length - LOG_LINES_MAX);
      for (let i = 0; i < drop; i++) chars -= all[i]!.length;
      while (chars > LOG_READ_CHARS_MAX && drop < all.length - 1) chars -= all[drop++]!.length;
      if (drop) all.splice(0, drop);
      dropped.current += drop;
      setVersion((v) => v + 1);
    };
    const fail = (err: unknown) => current && setState({ kind: 'error', message: errorText(err) });

    if (!follow || previous) {
      bridge.request('logs.read', input).then((r) => {
        if (!current) return;
        if (r.status === 'unavailable') {
          setContainers(r.containers ?? null);
          return setState({ kind: 'unavailable', message: r.message, nextStep: r.nextStep });
        }
        setContainers(r.containers);
        append(r.lines);
        setState({ kind: 'lines', following: false, ...(r.omitted ? { omitted: r.omitted } : {}), ...(r.captured ? { captured: r.captured } : {}), ...(r.from ? { from: r.from } : {}) });
      }, fail);
      return () => {
        current = false;
      };
    }

    // A subscription: its items come to this window only; cancelling it stops the reading on the node.
    const following = new AbortController();
    let from: string | undefined;
    bridge
      .request('logs.follow', input, {
        signal: following.signal,
        onProgress: (p) => {
          if (p.status === 'lines') return append(p.lines);
          setContainers(p.containers);
          from = p.from;
          setState({ kind: 'lines', following: true, ...(from ? { from } : {}) });
        },
      })
      .then((r) => {
        if (!current) return;
        if (r.status === 'unavailable') {
          setContainers(r.containers ?? null);
          return setState({ kind: 'unavailable', message: r.message, nextStep: r.nextStep });
        }
        setState({ kind: 'lines', following: false, ...(from ? { from } : {}) });
        setEnded(`${r.message} ${r.nextStep}`);
      }, fail);
    return () => {
      current = false;
      following.abort();
    };
  }, [bridge, nodeId, uid, container, previous, timestamps, tailLines, follow]);

  return { lines: lines.current, dropped: dropped.current, version, state, containers, ended };
}
