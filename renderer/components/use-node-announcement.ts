import { useEffect, useRef, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import { announcedState } from '../format/node-state';

/**
 * The latest change worth announcing, e.g. "worker-1: Live", for one live region instead of one per
 * node line (those also hold the countdown and the pod count, which change every second). Nodes as
 * first seen are not announced; `serial` changes with every announcement so the same words said
 * again (live, lost, live) are heard again.
 */
export function useNodeAnnouncement(nodes: readonly NodeInfo[]): { text: string; serial: number } {
  const heard = useRef<Map<string, string> | null>(null);
  const [said, setSaid] = useState({ text: '', serial: 0 });
  useEffect(() => {
    const before = heard.current;
    const now = new Map(nodes.map((n) => [n.id, announcedState(n.state)]));
    heard.current = now;
    if (!before) return;
    const changes = nodes.filter((n) => before.has(n.id) && before.get(n.id) !== now.get(n.id)).map((n) => `${n.label}: ${now.get(n.id)}`);
    if (changes.length) setSaid((s) => ({ text: changes.join('. '), serial: s.serial + 1 }));
  }, [nodes]);
  return said;
}
