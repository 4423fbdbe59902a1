import type { AppModel } from '../state/app-model';
import type { ActionStatus } from './use-action-status';

/** Across the top of the workspace: the link to the app core, the core's notices, the last action's outcome. */
export function Banners({ model, status }: { model: AppModel; status: ActionStatus }) {
  return (
    <>
      {model.connectionProblem && (
        <div className="banner bad" role="alert">
          {model.connectionProblem}
        </div>
      )}
      {model.notices.map((notice) => (
        // News of what the app did as set (nodes now keep rows only) is not shown as an error.
        <div key={notice.id} className={notice.tone === 'info' ? 'banner notice' : 'banner bad notice'} role={notice.tone === 'info' ? 'status' : 'alert'}>
          <span>
            {notice.message} <strong>{notice.nextStep}</strong>
          </span>
          <DismissButton onClick={() => void status.act(() => model.dismissNotice(notice.id))} />
        </div>
      ))}
      {status.done && (
        <div className="banner" role="status">
          {status.done}
          <DismissButton onClick={status.clearDone} />
        </div>
      )}
      {status.error && (
        <div className="banner bad" role="alert">
          {status.error}
          <DismissButton onClick={status.clearError} />
        </div>
      )}
    </>
  );
}

function DismissButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="icon-button" aria-label="Dismiss" onClick={onClick}>
      ✕
    </button>
  );
}
