import { useEffect, useId, useRef, useState } from 'react';

/**
 * "Removed worker-1 · Undo": offers to take a destructive action back for `timeoutMs`, instead of a
 * confirmation in the way. When the action took the focus with it (the clicked ✕ is gone), Undo
 * gets it, so the keyboard can answer at once. The time stands still while the pointer is on the
 * toast or the user has moved the focus into it, so nobody loses the chance while reaching for it.
 */
export function UndoToast(props: { message: string; onUndo: () => void; onDismiss: () => void; timeoutMs: number }) {
  const { onDismiss, timeoutMs } = props;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const undoRef = useRef<HTMLButtonElement>(null);
  const focusingUndo = useRef(false);
  const messageId = useId();

  useEffect(() => {
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    focusingUndo.current = true;
    undoRef.current?.focus();
    focusingUndo.current = false;
  }, []);
  useEffect(() => {
    if (hovered || focused) return;
    const timer = setTimeout(onDismiss, timeoutMs);
    return () => clearTimeout(timer);
  }, [hovered, focused, onDismiss, timeoutMs]);

  return (
    <div
      className="undo-toast"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => !focusingUndo.current && setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setFocused(false)}
    >
      <span id={messageId} role="status">
        {props.message}
      </span>
      <button ref={undoRef} type="button" className="undo-toast-action" aria-describedby={messageId} onClick={props.onUndo}>
        Undo
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </button>
    </div>
  );
}
