import type { NodeState } from '../../app/contract/nodes';
import { timeText } from './time-text';

/** The tone of a state's status dot and badge. */
export type Tone = 'ok' | 'busy' | 'wait' | 'bad' | 'off';

const WAITING_TEXT = {
  hostKey: 'Waiting for your host key decision',
  kubeletCertificate: "Waiting for your decision on the kubelet's certificate",
  passphrase: 'Waiting for the key passphrase',
  password: 'Waiting for the password',
  keyboardInteractive: 'Waiting for your login answers',
} as const;

/** One line for the sidebar and the header, and a second with the cause or next step. */
export function describeNodeState(state: NodeState, now: number): { tone: Tone; title: string; detail?: string } {
  switch (state.phase) {
    case 'disconnected':
      return { tone: 'off', title: 'Disconnected' };
    case 'connecting':
      return {
        tone: 'busy',
        title: state.attempt > 1 ? `Connecting (attempt ${state.attempt})` : 'Connecting…',
        ...(state.podsReceived !== undefined ? { detail: `${state.podsReceived.toLocaleString('en-US')} pods received` } : {}),
      };
    case 'waitingForUser':
      return { tone: 'wait', title: WAITING_TEXT[state.waitingFor] };
    case 'kubeletInitializing':
      return { tone: 'busy', title: 'Kubelet initializing…', ...(state.detail ? { detail: state.detail } : {}) };
    case 'live':
      return { tone: 'ok', title: 'Live' };
    case 'silent': {
      const seconds = Math.max(0, Math.floor((now - state.silentSince) / 1000));
      return {
        tone: 'wait',
        title: `Not answering for ${seconds}s`,
        detail: `Nothing heard from the node since ${new Date(state.silentSince).toLocaleTimeString()}: the pods shown are as of then and may be stale. Reconnecting if it stays silent.`,
      };
    }
    case 'catchingUp': {
      if (state.watch === 'replaying') {
        return {
          tone: 'busy',
          title: `Catching up: ${state.behind.toLocaleString('en-US')} changes behind`,
          detail: `Showing the kubelet's pod list of ${timeText(state.listedAt)} while the watch catches up; live once it has`,
        };
      }
      const seconds = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
      return {
        tone: 'wait',
        title: 'Catching up',
        detail: `The kubelet dropped the watch (${state.cause}); showing its pod list of ${timeText(state.listedAt)}, ${seconds > 0 ? `watching again in ${seconds}s` : 'watching again…'}`,
      };
    }
    case 'reconnecting': {
      const seconds = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
      return {
        tone: 'wait',
        title: seconds > 0 ? `Reconnecting in ${seconds}s` : 'Reconnecting…',
        detail: `${state.cause} (attempt ${state.attempt})`,
      };
    }
    case 'error':
      return { tone: 'bad', title: state.cause, detail: state.nextStep };
    case 'offline':
      return { tone: 'off', title: offlineTitle(state), detail: `From ${state.origin}; read-only, not live.` };
  }
}

/** "Snapshot of 2026-11-21 08:30:00" or "Recording at 08:31:05": an offline source says when, never "Live". */
export function offlineTitle(state: Extract<NodeState, { phase: 'offline' }>): string {
  if (state.timeline) return `Recording at ${timeText(state.timeline.at)}`;
  return state.takenAt === null ? 'Snapshot (time not recorded)' : `Snapshot of ${timeText(state.takenAt)}`;
}

/**
 * What a screen reader hears when a node's state changes: the phase, and the cause of an error, but
 * no countdown or attempt number, so a node retrying every few seconds is announced once.
 */
export function announcedState(state: NodeState): string {
  switch (state.phase) {
    case 'disconnected':
      return 'Disconnected';
    case 'connecting':
      return 'Connecting';
    case 'waitingForUser':
      return WAITING_TEXT[state.waitingFor];
    case 'kubeletInitializing':
      return 'Kubelet initializing';
    case 'live':
      return 'Live';
    case 'silent':
      return 'Not answering: the pods shown may be stale';
    case 'catchingUp':
      return state.watch === 'replaying' ? "Catching up: showing the kubelet's pod list" : 'Catching up: the kubelet dropped the watch';
    case 'reconnecting':
      return 'Connection lost, reconnecting';
    case 'error':
      return `Error: ${state.cause}. ${state.nextStep}`;
    case 'offline':
      return `Offline: ${offlineTitle(state)}`;
  }
}

/** The few states the sidebar counts and filters by, in the order it lists them. */
export const STATE_CATEGORIES = ['live', 'connecting', 'reconnecting', 'error', 'offline', 'disconnected'] as const;
export type StateCategory = (typeof STATE_CATEGORIES)[number];

export function stateCategory(state: NodeState): StateCategory {
  switch (state.phase) {
    case 'connecting':
    case 'kubeletInitializing':
    case 'waitingForUser':
      return 'connecting';
    // Its pods are the kubelet's list: a watch catching up on them is still getting there; one the kubelet
    // dropped is retried (not live, not gone).
    case 'catchingUp':
      return state.watch === 'replaying' ? 'connecting' : 'reconnecting';
    // Its pods are as last heard, and it is re-dialled if it stays silent.
    case 'silent':
      return 'reconnecting';
    default:
      return state.phase;
  }
}

/** Whether a source's pods are current: a live node's. Any other's are as last seen, or a file's. */
export function staleText(state: NodeState): string | undefined {
  if (state.phase === 'live') return undefined;
  if (state.phase === 'offline') return 'offline';
  if (state.phase === 'silent') return 'stale: not answering';
  return `stale: ${stateCategory(state)}`;
}
