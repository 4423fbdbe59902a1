import { useEffect, useRef } from 'react';
import { commandOfKey, isTyping, type Command, type CommandArg } from './key-bindings';

type Handler = (arg?: CommandArg) => void;

/** The handlers registered now, per command; the latest registration wins (a dialog's over the page's). */
const registry = new Map<Command, Handler[]>();

/** Runs a command as its key would; false when nothing can run it right now. */
export function runCommand(command: Command, arg?: CommandArg): boolean {
  const handler = registry.get(command)?.at(-1);
  if (!handler) return false;
  handler(arg);
  return true;
}

/** The commands something can run right now (the palette offers only these). */
export function availableCommands(): Set<Command> {
  return new Set([...registry].filter(([, hs]) => hs.length > 0).map(([c]) => c));
}

/**
 * Registers what this component does for some commands, while it is mounted; an undefined handler is
 * "not now" (no pod open: no compare). Handlers may change every render without re-registering.
 */
export function useShortcuts(handlers: Partial<Record<Command, Handler | undefined>>): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const active = (Object.keys(handlers) as Command[]).filter((c) => handlers[c]);
  const activeKey = active.join(' ');
  useEffect(() => {
    const mine = activeKey.split(' ').filter(Boolean) as Command[];
    const wrappers = mine.map((c) => {
      const wrapper: Handler = (arg) => latest.current[c]?.(arg);
      registry.set(c, [...(registry.get(c) ?? []), wrapper]);
      return [c, wrapper] as const;
    });
    return () => {
      for (const [c, wrapper] of wrappers) registry.set(c, (registry.get(c) ?? []).filter((h) => h !== wrapper));
    };
  }, [activeKey]);
}

/**
 * The one page-wide key listener: a key from the table (key-bindings.ts) runs its command. Not while
 * typing in a field, not while a dialog is open (its keys are its own), and not when the focused
 * widget already took the key (the grid's arrows).
 */
export function useKeyListener(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const found = commandOfKey(e, isTyping(e.target));
      if (!found || document.querySelector('dialog[open]')) return;
      // Esc also leaves a field: its default (clearing a search box) stays.
      if (runCommand(found.command, found.arg) && found.command !== 'escape') e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
