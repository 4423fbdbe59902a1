import { describe, expect, it } from 'vitest';
import { KUBELET_UNITS, parseJournal, parseJournalLine, pickKubeletUnit } from './kubelet-journal';

describe('kubelet unit and journal', () => {
  it('picks the loaded, active unit of those asked (k3s-agent here), not a unit that is not found', () => {
    const blocks = KUBELET_UNITS.map((u) =>
      u === 'k3s-agent' ? `Id=${u}.service\nLoadState=loaded\nActiveState=active\nSubState=running` : `Id=${u}.service\nLoadState=not-found\nActiveState=inactive\nSubState=dead`);
    expect(pickKubeletUnit(blocks.join('\n\n'), KUBELET_UNITS)).toEqual({ unit: 'k3s-agent', loadState: 'loaded', activeState: 'active', subState: 'running' });
  });

  it('takes a loaded unit that is stopped when none is active, and none when nothing is loaded', () => {
    expect(pickKubeletUnit('LoadState=loaded\nActiveState=failed\n\nLoadState=not-found', ['kubelet', 'k3s'])).toMatchObject({ unit: 'kubelet', activeState: 'failed' });
    expect(pickKubeletUnit('LoadState=not-found\n', ['kubelet'])).toBeUndefined();
  });

  it('splits short-iso lines into time, host, identifier, pid and message', () => {
    expect(parseJournalLine('2026-11-27T21:00:01+0000 node-1 kubelet[812]: E1127 21:00:01 pod_workers.go:1301] "Error syncing pod"')).toEqual({
      time: '2026-11-27T21:00:01+0000', host: 'node-1', identifier: 'kubelet', pid: 812, message: 'E1127 21:00:01 pod_workers.go:1301] "Error syncing pod"',
    });
    expect(parseJournalLine('2026-11-27T21:00:01+01:00 node-1 systemd[1]: Started kubelet.service.')).toMatchObject({ identifier: 'systemd', pid: 1 });
  });

  it('leaves out a pid no process can have rather than sending one the contract refuses', () => {
    const line = parseJournalLine('2026-11-27T21:00:01+0000 node-1 kubelet[99999999999999999999]: hello');
    expect(line).toEqual({ time: '2026-11-27T21:00:01+0000', host: 'node-1', identifier: 'kubelet', message: 'hello' });
  });

  it("keeps journalctl's own notes whole", () => {
    expect(parseJournal('-- No entries --\n')).toEqual([{ message: '-- No entries --' }]);
  });
});
