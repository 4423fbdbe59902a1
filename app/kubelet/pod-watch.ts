/**
 * A watch that never falls behind and always converges. The client queues the stream eagerly;
 * this drains it. When the stream ends for any reason (dropped for falling behind, SSH killed,
 * kubelet restart), it watches again with a capped backoff and reconciles: the new replay is the
 * full state, diffed against the held set into the ADDED/MODIFIED/DELETED that bring it up to date.
 *
 * A busy node can outrun the kubelet's 100-event buffer during the replay itself (30,000 pods take
 * seconds to send; 200 changes a second fill the buffer in half of one), however fast the stream is
 * read. Then the pods come from a ListPods at once (a unary call, which has no such buffer), the
 * watch reports `catchingUp`, and it watches again with backoff until a replay gets through.
 *
 * With `listFirst`, a node's first pods come from a ListPods, shown as soon as it arrives (`listed`), and
 * the watch opens after it: a list is read far faster than a replay of the same pods, which then costs
 * little (its pods are known by their bytes) and is merged in once caught up.
 */
import { isDeepStrictEqual } from 'node:util';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from '../ssh/reconnect-backoff';
import { wakeableSleep } from '../util/wakeable-sleep';
import type { KubeletClient, PodIntake, PodSourceApi, PodStream } from './kubelet-client';
import { canPassByWaiting, KubeletError } from './kubelet-error';
import { podSetChanges, type PodChange } from './pod-set-changes';
import type { HeldPod, ReceivedPod } from './received-pod';
import type { PodTree } from '../pod/pod-tree';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { noUidReason, sharedUidReason } from '../pod/first-pod-of-uid';

export type WatchState =
  /** `received`: pods of the first replay received so far, while a big node connects. */
  | { state: 'connecting'; attempt: number; received?: number }
  | { state: 'initializing'; detail: string; attempt: number; inMs: number }
  /** `leftOut`: pods received but not held, each named with why (see LeftOut); the rest are all there. */
  | { state: 'live'; since: number; leftOut: readonly string[] }
  /**
   * The kubelet dropped the watch: the held set is its ListPods of `since`, without the changes since;
   * watching again in `inMs`.
   */
  | { state: 'catchingUp'; since: number; leftOut: readonly string[]; attempt: number; inMs: number; cause: KubeletError }
  /**
   * The held set is the kubelet's ListPods of `since`, shown while the watch catches up on it. `behind`: the
   * replay's pods still to come before the watch is current (as many as were listed).
   */
  | { state: 'listed'; since: number; leftOut: readonly string[]; attempt: number; behind: number }
  | { state: 'reconnecting'; attempt: number; inMs: number; cause: KubeletError }
  | { state: 'error'; cause: KubeletError; nextStep: string }
  | { state: 'closed' };

export type { PodChange };

/**
 * Why a pod the kubelet sent is not among the held pods: it does not decode, it has no uid, or another pod
 * has its uid. The watch follows pods by uid, so the first of a uid is kept and the others are named here.
 */
class LeftOut {
  private readonly byKey = new Map<string, string>();

  static key(uid: string, namespace: string, name: string): string {
    return `${uid}\u0000${namespace}/${name}`;
  }

  /** Whether the pod, as received, can be held; when it cannot, it is noted with why. */
  admit(pod: HeldPod, holder: HeldPod | undefined): boolean {
    const key = LeftOut.key(pod.uid, pod.namespace, pod.name);
    if (pod.uid === '') {
      this.byKey.set(key, noUidReason(pod));
      return false;
    }
    // The same namespace/name with its uid is the held pod itself, changed.
    if (holder && (holder.namespace !== pod.namespace || holder.name !== pod.name)) {
      this.byKey.set(key, sharedUidReason(pod, holder));
      return false;
    }
    this.byKey.delete(key);
    return true;
  }

  undecodable(error: PodDecodeError): void {
    this.byKey.set(LeftOut.undecodableKey(error), `left out a pod that does not decode: ${error.message}`);
  }

  /** A pod left out for not decoding is no longer sent. */
  undecodableGone(error: PodDecodeError): void {
    this.byKey.delete(LeftOut.undecodableKey(error));
  }

  private static undecodableKey(error: PodDecodeError): string {
    return LeftOut.key(error.uid ?? '', '', error.pod);
  }

  /** A pod that was left out is gone (deleted, or decodes now). */
  forget(pod: HeldPod): void {
    this.byKey.delete(LeftOut.key(pod.uid, pod.namespace, pod.name));
    this.byKey.delete(LeftOut.key(pod.uid, '', pod.namespace ? `${pod.namespace}/${pod.name}` : pod.name));
  }

  clear(): void {
    this.byKey.clear();
  }

  get size(): number {
    return this.byKey.size;
  }

  list(): string[] {
    return [...this.byKey.values()];
  }
}

export interface PodWatchHandlers<W extends HeldPod = ReceivedPod> {
  /**
   * The held set after a replay: the first one, or a re-sync after a reconnect. `changes` turned the
   * previous held set into this one.
   */
  synced?(pods: W[], changes: PodChange<W>[], resync: boolean): void;
  /** A live change after the sync. */
  change?(change: PodChange<W>): void;
  state?(state: WatchState): void;
}

export interface PodWatch<W extends HeldPod = ReceivedPod> {
  /** The pods as of the last event, by UID. */
  held(): ReadonlyMap<string, W>;
  state(): WatchState;
  /** The shape in use, once known. */
  api(): PodSourceApi | undefined;
  /** Number of completed re-syncs (after the first sync). */
  resyncs(): number;
  /**
   * What the holding keeps changed (PodHolding.again): every held pod is held again as it says, and `read` (the
   * same pods read again, e.g. by a ListPods) replace the held ones of the same uid and digest. Answers the held
   * pods that changed; the pods are the same versions, so no change is reported.
   */
  rehold(read?: Iterable<W>): W[];
  close(): Promise<void>;
}

/**
 * What the watch keeps of each pod, taken once as the pod is decoded: a holder of tens of thousands of
 * pods keeps their bytes and what it shows of them rather than the trees (kubelet-node-link.ts).
 */
export interface PodHolding<W extends HeldPod> {
  /** As PodIntake.keep: `bytes` are lent, a copy is kept. */
  keep(pod: ReceivedPod, bytes: Uint8Array): W;
  /** The pod's tree (masked as received) again: a masked pod whose bytes changed is compared by it. */
  tree(pod: W): PodTree;
  /** As PodIntake.reads: the only fields `keep` reads of the tree it is handed. */
  reads?: FieldMask;
  /**
   * A pod held already, as the holding keeps pods now (what it keeps can change: a node switching to rows only
   * and back): the pod itself when it fits, what to hold instead, or undefined when only the pod's bytes would
   * do (it is then decoded again as it next arrives). Default: the pod as it is.
   */
  again?(pod: W): W | undefined;
}

/** By default the received pod is kept whole, tree and all. */
const WHOLE: PodHolding<ReceivedPod> = { keep: (pod) => pod, tree: (pod) => pod.pod };

export interface PodWatchOptions<W extends HeldPod = ReceivedPod> {
  backoff?: BackoffPolicy;
  /** Whether the pods carry a field mask: then a change shows only when the masked pod changes. */
  masked?: boolean;
  /** What is held of each pod; default the whole ReceivedPod. */
  holding?: PodHolding<W>;
  /**
   * Until pods are shown, list them before each watch and show the list as soon as it arrives, rather than
   * after the watch's replay (a 30,000-pod replay arrives several times slower).
   */
  listFirst?: boolean;
}

export function startPodWatch<W extends HeldPod = ReceivedPod>(
  client: KubeletClient,
  handlers: PodWatchHandlers<W>,
  options: PodWatchOptions<W> = {},
): PodWatch<W> {
  const holding = options.holding ?? (WHOLE as unknown as PodHolding<W>);
  let held = new Map<string, W>();
  /** The held pods by the digest of their wire bytes: a replay or list hands these on without decoding them again. */
  let byDigest = new Map<string, W>();
  /**
   * The pods of the replay under way, by digest: when the kubelet drops it before its end, the list
   * that catches up need not decode them again.
   */
  let replayed = new Map<string, W>();
  /** The client hands on a pod held already as it is, and keeps a new one as `holding` says as soon as it is decoded. */
  /** A pod held or replayed already, as the holding keeps pods now (undefined: it must be decoded again). */
  const asHeldNow = (pod: W | undefined): W | undefined => (pod && holding.again ? holding.again(pod) : pod);
  const intake: PodIntake<W> = {
    known: (digest) => asHeldNow(byDigest.get(digest) ?? replayed.get(digest)),
    keep: holding.keep,
    ...(holding.reads ? { reads: holding.reads } : {}),
  };
  const leftOut = new LeftOut();
  let liveSince = 0;
  let current: WatchState = { state: 'connecting', attempt: 1 };
  let stream: PodStream<W> | undefined;
  let api: PodSourceApi | undefined;
  let closed = false;
  let synced = false;
  /**
   * The held set is a ListPods: the next watch, opened after it, is catching up on it (its replay is never
   * older than the list, so it replaces the list at its end).
   */
  let heldFromList = false;
  let resyncs = 0;
  /** Replays that got through to the end (not lists made to catch up). */
  let watchSyncs = 0;
  const backoff = wakeableSleep();
  /** A watch call is being set up (no stream yet). */
  let opening = false;
  /** A ListPods is under way (it cannot be cancelled: close() does not wait for it). */
  let listing = false;

  const setState = (s: WatchState) => {
    current = s;
    handlers.state?.(s);
  };
  const same = (a: W, b: W) => a.digest === b.digest || (options.masked === true && isDeepStrictEqual(holding.tree(a), holding.tree(b)));

  /** Says that the pods left out changed, while live (a live state carries them). */
  const leftOutChanged = () => {
    if (current.state === 'live') setState({ state: 'live', since: liveSince, leftOut: leftOut.list() });
  };

  /** How often the first replay's progress is reported: a count, not an event per pod. */
  const PROGRESS_MS = 250;
  let progressAt = 0;
  /** A replay message arrived; before anything is shown, says how many so far. */
  const progress = (received: number, attempt: number) => {
    if (synced) return;
    const now = Date.now();
    if (now - progressAt < PROGRESS_MS) return;
    progressAt = now;
    setState({ state: 'connecting', attempt, received });
  };
  /** While a list is shown and a watch catches up on it, how far behind it is, as often as the progress. */
  const catchingUp = (behind: number, attempt: number) => {
    const now = Date.now();
    if (current.state === 'listed' && now - progressAt < PROGRESS_MS) return;
    progressAt = now;
    setState({ state: 'listed', since: liveSince, leftOut: leftOut.list(), attempt, behind });
  };

  /**
   * Makes `pods` the held set, reporting what changed; `undecodable` are the replay's pods that do not
   * decode. `listed`: the set is a ListPods made after the kubelet dropped the watch (the caller
   * reports the catching-up state), not a watch's replay.
   */
  const reconcile = (pods: Iterable<W>, undecodable: PodDecodeError[], listed = false) => {
    const next = new Map<string, W>();
    leftOut.clear();
    for (const error of undecodable) leftOut.undecodable(error);
    // A replay taken in before the holding changed holds its pods as they were kept then.
    for (const taken of pods) {
      const pod = asHeldNow(taken) ?? taken;
      if (leftOut.admit(pod, next.get(pod.uid))) next.set(pod.uid, pod);
    }
    const changes = podSetChanges(held, next, same);
    held = next;
    // Built in place: a busy node that keeps catching up reconciles 30,000 pods every few seconds, and
    // temporary arrays of them outlive the young generation.
    byDigest = new Map();
    for (const pod of next.values()) byDigest.set(pod.digest, pod);
    const resync = synced;
    if (resync) resyncs++;
    synced = true;
    heldFromList = listed;
    liveSince = Date.now();
    if (!listed) {
      watchSyncs++;
      setState({ state: 'live', since: liveSince, leftOut: leftOut.list() });
    }
    handlers.synced?.([...next.values()], changes, resync);
  };

  /** A live event; repeats of what is held (a documented replay after the list) are dropped. */
  const apply = (type: PodChange['type'], taken: W) => {
    // Taken in (decoded) before the holding changed, as pods were kept then.
    const pod = asHeldNow(taken) ?? taken;
    const before = held.get(pod.uid);
    const count = leftOut.size;
    if (type === 'DELETED') {
      leftOut.forget(pod);
      if (count !== leftOut.size) leftOutChanged();
      // The deletion of a pod left out for sharing a held pod's uid leaves the held one alone.
      if (!before || before.namespace !== pod.namespace || before.name !== pod.name) return;
      held.delete(pod.uid);
      byDigest.delete(before.digest);
      handlers.change?.({ type, pod: before });
      return;
    }
    leftOut.forget(pod);
    const admitted = leftOut.admit(pod, before);
    if (count !== leftOut.size) leftOutChanged();
    if (!admitted) return;
    if (before && same(before, pod)) return;
    if (before) byDigest.delete(before.digest);
    held.set(pod.uid, pod);
    byDigest.set(pod.digest, pod);
    handlers.change?.({ type: before ? 'MODIFIED' : 'ADDED', pod });
  };

  /** Shipped (and REST polling): ADDED... then INITIAL_SYNC_COMPLETE is the full state; then live events. */
  const consumeShipped = async (s: PodStream<W>, attempt: number) => {
    // Keyed by identity, not uid alone: pods that share a uid are told apart when the replay is reconciled.
    let replay: Map<string, W> | undefined = new Map();
    const undecodable: PodDecodeError[] = [];
    // Only this replay's: the catch-up after the last one has run, or failed.
    replayed = new Map();
    for await (const message of s) {
      if (closed) return;
      if (message.type === 'INITIAL_SYNC_COMPLETE') {
        if (replay) reconcile(replay.values(), undecodable);
        replayed = new Map();
        replay = undefined;
      } else if (message.type === 'UNDECODABLE_GONE') {
        leftOut.undecodableGone(message.error);
        leftOutChanged();
      } else if (message.type === 'UNDECODABLE') {
        if (replay) undecodable.push(message.error);
        else {
          leftOut.undecodable(message.error);
          leftOutChanged();
        }
      } else if (replay) {
        const key = LeftOut.key(message.pod.uid, message.pod.namespace, message.pod.name);
        if (message.type === 'DELETED') replay.delete(key);
        else {
          replay.set(key, message.pod);
          replayed.set(message.pod.digest, message.pod);
        }
      } else apply(message.type, message.pod);
      if (!replay) continue;
      if (heldFromList) catchingUp(Math.max(0, held.size - replay.size), attempt);
      else progress(replay.size + undecodable.length, attempt);
    }
  };

  /**
   * Documented: the watch has no end-of-replay marker, so the state to reconcile to comes from a
   * ListPods made once the watch is open; replay messages that repeat it are then no-ops. The list
   * does not wait out an initializing kubelet: that shows as the watch's state, like the shipped
   * watch's, and close() is not held up by a list retrying for a minute.
   */
  const consumeDocumented = async (s: PodStream<W>) => {
    const { pods, undecodable } = await client.listPods({ waitIfBusy: false, intake });
    if (closed) return;
    reconcile(pods, undecodable);
    for await (const message of s) {
      if (closed) return;
      if (message.type === 'UNDECODABLE') {
        leftOut.undecodable(message.error);
        leftOutChanged();
      } else if (message.type === 'UNDECODABLE_GONE') {
        leftOut.undecodableGone(message.error);
        leftOutChanged();
      } else if (message.type !== 'INITIAL_SYNC_COMPLETE') apply(message.type, message.pod);
    }
  };

  /**
   * A ListPods, shown at once (reconciled like a replay): when the kubelet dropped the watch for falling
   * behind, instead of nothing or a set missing the changes since the drop; with listFirst, before
   * the first watch (`first`: then a failure is thrown, as the watch's). False when the list failed; the
   * watch then goes on, or retries.
   */
  const catchUp = async (attempt: number, first = false): Promise<boolean> => {
    // Before anything is shown, the count goes on moving with the list's pods (30,000 take seconds to
    // decode), from where the dropped replay left it.
    const fromReplay = replayed.size;
    let listed = 0;
    const counting: PodIntake<W> = {
      ...intake,
      known: (digest) => {
        progress(Math.max(fromReplay, ++listed), attempt);
        return intake.known(digest);
      },
    };
    listing = true;
    try {
      const { pods, undecodable } = await client.listPods({ waitIfBusy: false, intake: counting });
      if (closed) return false;
      replayed = new Map();
      reconcile(pods, undecodable, true);
      return true;
    } catch (err) {
      // The list that comes first fails the attempt as the watch would (a missing socket is an error to show).
      if (first) throw err;
      return false;
    } finally {
      listing = false;
    }
  };

  const run = async () => {
    let failures = 0;
    for (let attempt = 1; !closed; attempt++) {
      let cause: KubeletError;
      const syncsBefore = watchSyncs;
      /** This attempt's own list is what is shown (so a drop needs no other). */
      let listedFirst = false;
      try {
        // Until pods are shown, a list first, shown the moment it is in; the watch is opened after it: its
        // replay (the same pods again) would otherwise share the SSH link's bandwidth with the list that is shown
        // first, and it is then never older than the list. Its pods are known by their bytes, not decoded again.
        if (options.listFirst && !synced && (listedFirst = await catchUp(attempt, true))) catchingUp(held.size, attempt);
        if (closed) break;
        opening = true;
        stream = await client.watchPods(intake).finally(() => (opening = false));
        api = stream.api;
        if (closed) break;
        await (stream.api === 'documented' ? consumeDocumented(stream) : consumeShipped(stream, attempt));
        if (closed) break;
        cause = new KubeletError('CANCELLED', 'The kubelet ended the watch', 'Nodescope watches again.');
      } catch (err) {
        if (closed) break;
        // The client maps call failures; anything else (a pod that does not decode) is not worth retrying.
        cause = err instanceof KubeletError ? err : new KubeletError('INTERNAL', `Watching failed: ${(err as Error).message}`,
          'Report this with the kubelet version; `nodescope pods` may still work.', { cause: err, retryable: false });
      } finally {
        stream?.cancel();
        stream = undefined;
      }
      if (!canPassByWaiting(cause, synced)) {
        setState({ state: 'error', cause, nextStep: cause.nextStep });
        return;
      }
      // A watch that synced before it ended starts the backoff afresh; a list shown meanwhile does not.
      failures = watchSyncs > syncsBefore ? 1 : failures + 1;
      const inMs = backoffDelayMs(failures, options.backoff ?? DEFAULT_BACKOFF);
      const listShown = listedFirst && watchSyncs === syncsBefore;
      if (cause.code === 'WATCH_DROPPED' && (listShown || (await catchUp(attempt)))) {
        setState({ state: 'catchingUp', since: liveSince, leftOut: leftOut.list(), attempt, inMs, cause });
      } else if (closed) break;
      else {
        setState(
          cause.code === 'INITIALIZING'
            ? { state: 'initializing', detail: cause.message, attempt, inMs }
            : { state: 'reconnecting', attempt, inMs, cause },
        );
      }
      await backoff.sleep(inMs);
    }
  };
  setState(current);
  const done = run();

  return {
    held: () => held,
    state: () => current,
    api: () => api,
    resyncs: () => resyncs,
    rehold(read = []) {
      const readByUid = new Map<string, W>();
      for (const pod of read) readByUid.set(pod.uid, pod);
      const changed: W[] = [];
      for (const [uid, pod] of held) {
        const fresh = readByUid.get(uid);
        const next = fresh && fresh.digest === pod.digest ? fresh : (asHeldNow(pod) ?? pod);
        if (next === pod) continue;
        held.set(uid, next);
        if (byDigest.get(pod.digest) === pod) byDigest.set(pod.digest, next);
        changed.push(next);
      }
      // A replay under way is held as it is reconciled; what it took in so far is not handed on as it was kept.
      replayed = new Map();
      return changed;
    },
    async close() {
      if (closed) return;
      closed = true;
      const streaming = stream !== undefined;
      stream?.cancel();
      backoff.wake();
      // A call still being set up (an SSH dial waiting for a host key answer), or a list under way, fails or
      // ends once the caller closes the client and transport; the loop then sees `closed` and stops without reporting.
      if ((streaming || !opening) && !listing) await done;
      setState({ state: 'closed' });
    },
  };
}
