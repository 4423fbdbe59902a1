import { createRoot } from 'react-dom/client';
import type { Bridge } from '../app/contract/bridge';
import type { WsBridge } from './bridge/ws-bridge-client';
import { App } from './components/App';
import { AppModel } from './state/app-model';
import './styles.css';

/** Starts the model on a bridge and renders the app; after a socket drop it resyncs on reconnect. */
export function mountApp(bridge: Bridge, socket: WsBridge | null): AppModel {
  const model = new AppModel(bridge);
  let wasClosed = false;
  socket?.onStatus((status) => {
    if (status === 'closed') {
      wasClosed = true;
      model.reportConnection('Lost the connection to Nodescope; reconnecting… If you restarted `nodescope ui`, open the new URL it printed.');
    } else if (status === 'open' && wasClosed) {
      wasClosed = false;
      void model.resync();
    }
  });
  void model.start();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(<App model={model} />);
  return model;
}
