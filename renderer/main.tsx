import { createRoot } from 'react-dom/client';
import { selectBridge } from './bridge/select-bridge';
import { errorText } from './format/error-text';
import { mountApp } from './mount-app';
import './styles.css';

try {
  const { bridge, socket } = selectBridge();
  mountApp(bridge, socket);
} catch (err) {
  // Opened without the token URL (or outside Nodescope): say what to do instead of a blank page.
  createRoot(document.getElementById('root')!).render(
    <div className="welcome">
      <h1>Nodescope cannot reach its app</h1>
      <p className="muted">{errorText(err)}</p>
    </div>,
  );
}
