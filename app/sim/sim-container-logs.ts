/**
 * `nodescope sim --log-dir DIR`: CRI log files for the simulated pods in the kubelet's layout
 * (`DIR/<ns>_<name>_<uid>/<container>/<restartCount>.log`), kept up to date as the store changes: running
 * containers print every tick, a restart ends the old file with a crash and opens the next one, files rotate
 * as the kubelet rotates them (rename to `.log.<YYYYMMDD-hhmmss>`, older ones gzipped, at most `maxFiles`),
 * and a deleted pod's directory goes as garbage collection would take it.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, appendFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { containerStatuses } from './pod-status';
import type { PodStore } from './pod-store';
import { Prng } from './prng';
import { crashLines, criRecords, nextLine, rfc3339Nano } from './sim-log-lines';

export interface SimLogOptions {
  dir: string;
  seed?: number;
  /** Rotate a file once it reaches this size (default 64 KiB: small, so rotation is seen soon). */
  maxFileBytes?: number;
  /** Files kept per instance, the live one included (kubelet containerLogMaxFiles, default 5). */
  maxFiles?: number;
  /** How often running containers print (default 1 s); 0 = only when tick() is called. */
  intervalMs?: number;
  /** Lines per container per tick (default 2). */
  linesPerTick?: number;
}

export interface SimContainerLogs {
  /** Prints one round of lines in every running container (the timer calls it). */
  tick(now?: number): void;
  stop(): void;
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

interface Instance {
  dir: string;
  restartCount: number;
}

export function startSimContainerLogs(store: PodStore, options: SimLogOptions): SimContainerLogs {
  const prng = new Prng(options.seed ?? 1);
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024;
  const maxFiles = options.maxFiles ?? 5;
  const linesPerTick = options.linesPerTick ?? 2;
  let nanoCounter = 0;
  const stamp = (ms: number) => rfc3339Nano(ms, (nanoCounter = (nanoCounter + prng.int(1, 999)) % 1_000_000));
  /** Running containers by `<podDir>/<container>`. */
  const running = new Map<string, Instance>();

  const podDir = (pod: PodTree) => {
    const m = pod.metadata as PodObject;
    const [ns, name, uid] = [m.namespace, m.name, m.uid].map(String) as [string, string, string];
    // A name the kubelet could not have made a directory of (the fault injectors make such pods) gets none.
    return [ns, name, uid].every((s) => NAME.test(s) && !s.includes('_')) ? join(options.dir, `${ns}_${name}_${uid}`) : undefined;
  };

  const write = (inst: Instance, text: string) => {
    const path = join(inst.dir, `${inst.restartCount}.log`);
    appendFileSync(path, text, { mode: 0o640 });
    if (statSync(path).size >= maxFileBytes) rotate(inst, path);
  };

  // The kubelet's rotation: delete beyond MaxFiles-2 rotated files, gzip the rest, rename the live one.
  const rotate = (inst: Instance, path: string) => {
    const prefix = `${inst.restartCount}.log.`;
    const rotated = readdirSync(inst.dir).filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp')).sort();
    while (rotated.length > Math.max(0, maxFiles - 2)) rmSync(join(inst.dir, rotated.shift()!), { force: true });
    for (const n of rotated.filter((r) => !r.endsWith('.gz'))) {
      writeFileSync(join(inst.dir, `${n}.gz.tmp`), gzipSync(readFileSync(join(inst.dir, n))), { mode: 0o640 });
      renameSync(join(inst.dir, `${n}.gz.tmp`), join(inst.dir, `${n}.gz`));
      rmSync(join(inst.dir, n));
    }
    let when = new Date();
    let target: string;
    // One rotation a second at most has a name of its own; a faster one takes the next free second.
    while (existsSync((target = `${path}.${timestampName(when)}`)) || existsSync(`${target}.gz`)) when = new Date(when.getTime() + 1000);
    renameSync(path, target);
    writeFileSync(path, '', { mode: 0o640 });
  };

  const print = (inst: Instance, container: string, ms: number, n: number) => {
    let text = '';
    for (let i = 0; i < n; i++) {
      const l = nextLine(prng, container);
      text += criRecords(stamp(ms), l.stream, l.text);
    }
    write(inst, text);
  };

  const crash = (inst: Instance, ms: number) => write(inst, crashLines(prng).map((l) => criRecords(stamp(ms), 'stderr', l)).join(''));

  const sync = (pod: PodTree, before: PodTree | undefined, now: number) => {
    const dir = podDir(pod);
    if (!dir) return;
    const previous = new Map(before ? allStatuses(before).map((c) => [String(c.name), Number(c.restartCount ?? 0)]) : []);
    for (const c of allStatuses(pod)) {
      const name = String(c.name);
      if (!NAME.test(name)) continue;
      const restartCount = Number(c.restartCount ?? 0);
      const state = (c.state ?? {}) as PodObject;
      const cdir = join(dir, name);
      const key = cdir;
      const known = previous.get(name);
      if (known === undefined || !existsSync(cdir)) {
        // Waiting without a last state: never started, so no log yet (in a crash loop the last run's log stays).
        if (!state.running && !state.terminated && !(c.lastState as PodObject | undefined)?.terminated) continue;
        mkdirSync(cdir, { recursive: true, mode: 0o755 });
        // The instance before the current one, as the kubelet keeps it until GC, ending in its crash.
        if (restartCount > 0) {
          const old = { dir: cdir, restartCount: restartCount - 1 };
          print(old, name, now - 60_000, 5);
          crash(old, now - 30_000);
        }
        const inst = { dir: cdir, restartCount };
        print(inst, name, now, 3);
        if (state.running) running.set(key, inst);
        else running.delete(key);
        continue;
      }
      if (restartCount > known) {
        const old = running.get(key) ?? { dir: cdir, restartCount: known };
        crash(old, now);
        const inst = { dir: cdir, restartCount };
        print(inst, name, now, 1);
        if (state.running) running.set(key, inst);
      } else if (!state.running) {
        running.delete(key);
      }
    }
  };

  mkdirSync(options.dir, { recursive: true, mode: 0o755 });
  const start = Date.now();
  for (const uid of store.uids()) sync(store.get(uid)!, undefined, start);
  const unsubscribe = store.subscribe((e) => {
    const now = Date.now();
    if (e.type === 'DELETED') {
      const dir = e.previous && podDir(e.previous);
      if (!dir) return;
      for (const key of [...running.keys()]) if (key.startsWith(`${dir}/`)) running.delete(key);
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    sync(e.pod, e.previous, now);
  });

  const tick = (now = Date.now()) => {
    for (const [key, inst] of running) print(inst, key.slice(key.lastIndexOf('/') + 1), now, linesPerTick);
  };
  const timer = options.intervalMs === 0 ? undefined : setInterval(() => tick(), options.intervalMs ?? 1000);
  timer?.unref();
  return {
    tick,
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

/** Init, regular and ephemeral containers alike: the kubelet logs them all in the same layout. */
export function allStatuses(pod: PodTree): PodObject[] {
  const status = (pod.status ?? {}) as PodObject;
  const list = (key: string) => (Array.isArray(status[key]) ? (status[key] as PodObject[]) : []);
  return [...list('initContainerStatuses'), ...containerStatuses(pod), ...list('ephemeralContainerStatuses')];
}

/** The kubelet's rotated-file suffix, Go layout 20060102-150405 (here in UTC). */
function timestampName(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}
