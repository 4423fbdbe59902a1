import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog>: focus stays inside, Esc closes, and screen readers get a dialog
 * named by its title. The element marked data-autofocus gets the focus on open, so typing goes where
 * the dialog asks for it: React's autoFocus runs while the dialog is still closed (and so unfocusable),
 * and showModal() then focuses the first button, the ✕, where Enter closes the dialog.
 */
export function Modal(props: {
  title: string;
  onClose: () => void;
  /** What Escape does, when not closing (a dialog whose job is under way stops the job first). */
  onEscape?: () => void;
  children: ReactNode;
  wide?: boolean;
  size?: 'full';
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      className={props.size === 'full' ? 'modal modal-full' : props.wide ? 'modal modal-wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        (props.onEscape ?? props.onClose)();
      }}
    >
      <header className="modal-head">
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" className="icon-button" aria-label="Close dialog" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <div className="modal-body">{props.children}</div>
      {props.footer && <footer className="modal-foot">{props.footer}</footer>}
    </dialog>
  );
}
