import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { mountForTest, record } from '../testing/test-page';
import { ExportDialog } from './ExportDialog';

// The export dialog on the fake bridge, with an export that writes 12 of 40 pods and then waits: until
// the page cancels it (the host sees its call's signal abort) or the test lets it finish (window.finishExport).
declare global {
  interface Window {
    finishExport?: () => void;
  }
}

const bridge = createFakeBridge({
  'app.info': () => ({ version: 'test', mode: 'browser', canPickFiles: false, canOpenFiles: false, defaultExportDir: '/tmp', sshConfigFile: '~/.ssh/config' }),
  'pods.export': async ({ path }, call) => {
    call.progress({ done: 0, total: 40 });
    call.progress({ done: 12, total: 40 });
    await new Promise<void>((resolve, reject) => {
      window.finishExport = resolve;
      call.signal.addEventListener('abort', () => {
        record('host cancelled')();
        reject(call.signal.reason as Error);
      });
    });
    return { status: 'saved', path: path ?? '/tmp/pods.json', count: 40, bytes: 4096 };
  },
});

const uids = Array.from({ length: 40 }, (_, i) => `uid-${i}`);
mountForTest(<ExportDialog bridge={bridge} nodeId="n1" nodeLabel="worker-1" filteredUids={uids} totalCount={uids.length} mask="" onClose={() => record('close')()} />);
